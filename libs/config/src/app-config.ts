export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** The validated, typed configuration. Nothing else in the code base reads `process.env`. */
export interface AppConfig {
  nodeEnv: NodeEnv;
  /** `undefined` means: run an embedded Postgres under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Base URL of the identity app as clients see it, without a trailing slash. */
  publicUrl: string;
  port: number;
  adminPort: number;
  /** Base URL of the admin app as staff see it (console links), without a trailing slash. */
  adminPublicUrl: string;
  /** `undefined` means: write mail as `.eml` files under `dataDir/mail`. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Key of the HMAC that hashes client secrets and link tokens. */
  secretPepper: Buffer;
  /** AES-256-GCM key that encrypts private signing keys at rest. */
  keyEncryptionKey: Buffer;
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  /** Value handed to Express' `trust proxy` setting; `false` trusts no proxy. */
  trustProxy: false | string[];
  logLevel: LogLevel;
  /** While Postgres is unreachable, the token endpoint keeps issuing from its caches this long (0 = never). */
  tokenOutageGraceSeconds: number;
  /** `DEV_TLS=1`: serve the identity app over https with a development certificate under `dataDir`. */
  devTls: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
