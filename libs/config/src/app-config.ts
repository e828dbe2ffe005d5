export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** The validated, typed configuration. Nothing else in the code base reads `process.env`. */
export interface AppConfig {
  nodeEnv: NodeEnv;
  /** `undefined` means: run an embedded Postgres under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /**
   * Set when `DATA_DIR` was unset and a root start put it in `/var/lib/gatehouse` (`ROOT_DATA_DIR`)
   * rather than `./var`: the folder on the way to `./var` that the embedded PostgreSQL's account cannot enter.
   */
  dataDirMoved?: string;
  /** Base URL of the identity app as clients see it, without a trailing slash. */
  publicUrl: string;
  port: number;
  adminPort: number;
  /** Bind address of every listener (`HOST`). */
  host: string;
  /** `/metrics` and the health paths for the whole process; never on a public port. */
  managementPort: number;
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
  /** At most this many clients are held in each identity replica's token cache (least recently used evicted). */
  tokenCacheClients: number;
  /**
   * Token requests an identity app sends itself before it serves (0 = none): a synthetic tenant
   * and client held in memory only, on a loopback port, so the first real requests meet compiled code.
   */
  tokenWarmUpRequests: number;
  /**
   * Active clients (most recently changed first, at most `tokenCacheClients`) an identity app reads
   * into its token cache before it serves, so a replica that starts under load answers from memory (0 = none).
   */
  tokenPreloadClients: number;
  /** Identity replicas count the last use of credentials and scope grants (`LAST_USE_TRACKING=0` turns it off). */
  lastUseTracking: boolean;
  /** How often an identity replica writes the last uses it counted (1–60 s; what a killed replica can lose). */
  lastUseFlushSeconds: number;
  /** `DEV_TLS=1`: serve the identity app over https with a development certificate under `dataDir`. */
  devTls: boolean;
  /** How long a mail that fails transiently (SMTP unreachable, 4xx) is retried before it is abandoned. */
  mailRetryHours: number;
  /** The claim on a mail being sent; a live worker renews it, another worker takes over when it lapses. */
  outboxLeaseSeconds: number;
  /** On SIGTERM, how long in-flight requests and the current outbox batch may take to finish. */
  shutdownTimeoutSeconds: number;
  /** Federated-credential issuers (URLs) whose host may resolve to private addresses (§11). */
  federationPrivateIssuers: string[];
  /** Webhook endpoints (URLs) whose host may resolve to private addresses (§13). */
  webhookPrivateTargets: string[];
  /** PEM certificates trusted for outbound https beside the system's (`OUTBOUND_CA_FILE`). */
  outboundCa: string | undefined;
  /** Audit streaming to syslog (`AUDIT_SYSLOG_URL`, `tcp://` or `tls://host:port`), RFC 5424 over TCP (§13). */
  auditSyslogUrl: string | undefined;
  /** Audit streaming to Splunk's HTTP Event Collector (`AUDIT_HEC_URL`, https) with `AUDIT_HEC_TOKEN` (§13). */
  auditHecUrl: string | undefined;
  auditHecToken: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
