import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppConfig, ConfigError, LogLevel, NodeEnv } from './app-config.js';
import { defaultDataDir } from './default-data-dir.js';

type Env = Record<string, string | undefined>;

const NODE_ENVS: NodeEnv[] = ['development', 'production', 'test'];
const LOG_LEVELS: LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
const DEV_SECRETS_FILE = 'dev-secrets.json';

/**
 * Reads and validates the environment once. Every problem is collected and reported together,
 * each naming its variable, so an operator fixes a bad deployment in one round.
 */
export function loadConfig(env: Env): AppConfig {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const nodeEnv = oneOf(read('NODE_ENV') ?? 'development', NODE_ENVS, 'NODE_ENV', problems);
  const logLevel = oneOf(read('LOG_LEVEL') ?? 'info', LOG_LEVELS, 'LOG_LEVEL', problems);
  const databaseUrl = optionalUrl(read('DATABASE_URL'), ['postgres:', 'postgresql:'], 'DATABASE_URL', problems);
  const explicitDataDir = read('DATA_DIR');
  const { dataDir, outOfReach } = explicitDataDir
    ? { dataDir: resolve(explicitDataDir), outOfReach: undefined }
    : defaultDataDir({ embedded: !read('DATABASE_URL'), uid: process.getuid?.(), rootDataDir: read('ROOT_DATA_DIR') });
  const devTls = flag(read('DEV_TLS'), 'DEV_TLS', problems);
  const tokenOutageGraceSeconds = seconds(read('TOKEN_OUTAGE_GRACE_SECONDS') ?? '600', 'TOKEN_OUTAGE_GRACE_SECONDS', problems);
  const tokenCacheClients = wholeNumber(read('TOKEN_CACHE_CLIENTS') ?? '150000', 'TOKEN_CACHE_CLIENTS', problems);
  const tokenWarmUpRequests = upTo(1_000_000, read('TOKEN_WARMUP_REQUESTS') ?? '20000', 'TOKEN_WARMUP_REQUESTS', problems);
  const tokenPreloadClients = upTo(999_999_999, read('TOKEN_PRELOAD_CLIENTS') ?? '150000', 'TOKEN_PRELOAD_CLIENTS', problems);
  const lastUseTracking = flag(read('LAST_USE_TRACKING') ?? '1', 'LAST_USE_TRACKING', problems);
  const lastUseFlushSeconds = flushSeconds(read('LAST_USE_FLUSH_SECONDS') ?? '60', problems);
  const smtpUrl = optionalUrl(read('SMTP_URL'), ['smtp:', 'smtps:'], 'SMTP_URL', problems);
  const port = portNumber(read('PORT') ?? '3000', 'PORT', problems);
  const adminPort = portNumber(read('ADMIN_PORT') ?? '3001', 'ADMIN_PORT', problems);
  const managementPort = portNumber(read('MANAGEMENT_PORT') ?? '9000', 'MANAGEMENT_PORT', problems);
  const publicUrl = optionalUrl(
    read('PUBLIC_URL') ?? `${devTls ? 'https' : 'http'}://localhost:${port ?? 3000}`,
    ['http:', 'https:'],
    'PUBLIC_URL',
    problems,
  );
  const host = read('HOST') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:_-]{1,253}$/.test(host)) problems.push(`HOST must be an address or host name (got "${host}")`);
  const mailRetryHours = positiveNumber(read('MAIL_RETRY_HOURS') ?? '24', 'MAIL_RETRY_HOURS', problems);
  const outboxLeaseSeconds = positiveNumber(read('OUTBOX_LEASE_SECONDS') ?? '20', 'OUTBOX_LEASE_SECONDS', problems);
  const shutdownTimeoutSeconds = positiveNumber(
    read('SHUTDOWN_TIMEOUT_SECONDS') ?? '20',
    'SHUTDOWN_TIMEOUT_SECONDS',
    problems,
  );
  const adminPublicUrl = optionalUrl(
    read('ADMIN_PUBLIC_URL') ?? `http://localhost:${adminPort ?? 3001}`,
    ['http:', 'https:'],
    'ADMIN_PUBLIC_URL',
    problems,
  );
  const mailFrom = read('MAIL_FROM') ?? 'Gatehouse <no-reply@localhost>';
  if (/[\r\n]/.test(mailFrom)) problems.push('MAIL_FROM must be a single line');
  const tlsCertFile = read('TLS_CERT_FILE');
  const tlsKeyFile = read('TLS_KEY_FILE');
  if (Boolean(tlsCertFile) !== Boolean(tlsKeyFile)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  for (const [name, file] of [['TLS_CERT_FILE', tlsCertFile], ['TLS_KEY_FILE', tlsKeyFile]] as const) {
    if (file && !existsSync(file)) problems.push(`${name} names a file that does not exist`);
  }
  const trustProxy = parseTrustProxy(read('TRUST_PROXY'));
  const federationPrivateIssuers = httpsUrls(read('FEDERATION_PRIVATE_ISSUERS'), 'FEDERATION_PRIVATE_ISSUERS', problems);
  const webhookPrivateTargets = httpsUrls(read('WEBHOOK_PRIVATE_TARGETS'), 'WEBHOOK_PRIVATE_TARGETS', problems);
  const outboundCaFile = read('OUTBOUND_CA_FILE');
  if (outboundCaFile && !existsSync(outboundCaFile)) problems.push('OUTBOUND_CA_FILE names a file that does not exist');
  const auditSinks = auditStreaming(read, problems);

  const production = nodeEnv === 'production';
  if (production && devTls) problems.push('DEV_TLS is for development; set TLS_CERT_FILE and TLS_KEY_FILE in production');
  let secretPepper = key(read('SECRET_PEPPER'), 'SECRET_PEPPER', problems);
  let keyEncryptionKey = key(read('KEY_ENCRYPTION_KEY'), 'KEY_ENCRYPTION_KEY', problems);
  if (production && !read('SECRET_PEPPER')) problems.push('SECRET_PEPPER is required when NODE_ENV=production');
  if (production && !read('KEY_ENCRYPTION_KEY')) {
    problems.push('KEY_ENCRYPTION_KEY is required when NODE_ENV=production');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  if (!secretPepper || !keyEncryptionKey) {
    const generated = developmentSecrets(dataDir);
    secretPepper ??= generated.secretPepper;
    keyEncryptionKey ??= generated.keyEncryptionKey;
  }

  return {
    nodeEnv: nodeEnv as NodeEnv,
    databaseUrl,
    dataDir,
    ...(outOfReach ? { dataDirMoved: outOfReach } : {}),
    publicUrl: publicUrl!.replace(/\/+$/, ''),
    port: port!,
    adminPort: adminPort!,
    host,
    managementPort: managementPort!,
    adminPublicUrl: adminPublicUrl!.replace(/\/+$/, ''),
    smtpUrl,
    mailFrom,
    secretPepper,
    keyEncryptionKey,
    tlsCertFile,
    tlsKeyFile,
    trustProxy,
    logLevel: logLevel as LogLevel,
    tokenOutageGraceSeconds: tokenOutageGraceSeconds!,
    tokenCacheClients: tokenCacheClients!,
    tokenWarmUpRequests: tokenWarmUpRequests!,
    tokenPreloadClients: tokenPreloadClients!,
    lastUseTracking,
    lastUseFlushSeconds: lastUseFlushSeconds!,
    devTls,
    mailRetryHours: mailRetryHours!,
    outboxLeaseSeconds: outboxLeaseSeconds!,
    shutdownTimeoutSeconds: shutdownTimeoutSeconds!,
    federationPrivateIssuers,
    webhookPrivateTargets,
    outboundCa: outboundCaFile ? readFileSync(outboundCaFile, 'utf8') : undefined,
    ...auditSinks,
  };
}

function flag(value: string | undefined, name: string, problems: string[]): boolean {
  if (value === undefined || ['0', 'false', 'no'].includes(value.toLowerCase())) return false;
  if (['1', 'true', 'yes'].includes(value.toLowerCase())) return true;
  problems.push(`${name} must be 1 or 0 (got "${value}")`);
  return false;
}

function seconds(value: string, name: string, problems: string[]): number | undefined {
  if (/^\d{1,7}$/.test(value)) return Number(value);
  problems.push(`${name} must be a whole number of seconds (got "${value}")`);
  return undefined;
}

function wholeNumber(value: string, name: string, problems: string[]): number | undefined {
  if (/^[1-9]\d{0,8}$/.test(value)) return Number(value);
  problems.push(`${name} must be a whole number from 1 to 999999999 (got "${value}")`);
  return undefined;
}

/** At most once a minute (the design's bound on what a killed replica loses); shorter for tests. */
function flushSeconds(value: string, problems: string[]): number | undefined {
  if (/^\d{1,2}$/.test(value) && Number(value) >= 1 && Number(value) <= 60) return Number(value);
  problems.push(`LAST_USE_FLUSH_SECONDS must be a whole number of seconds from 1 to 60 (got "${value}")`);
  return undefined;
}

function upTo(max: number, value: string, name: string, problems: string[]): number | undefined {
  if (/^\d{1,9}$/.test(value) && Number(value) <= max) return Number(value);
  problems.push(`${name} must be a whole number from 0 to ${max} (got "${value}")`);
  return undefined;
}

function positiveNumber(value: string, name: string, problems: string[]): number | undefined {
  const number = Number(value);
  if (/^\d+(\.\d+)?$/.test(value) && number > 0) return number;
  problems.push(`${name} must be a positive number (got "${value}")`);
  return undefined;
}

function oneOf<T extends string>(value: string, allowed: T[], name: string, problems: string[]): T | undefined {
  if ((allowed as string[]).includes(value)) return value as T;
  problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
  return undefined;
}

function optionalUrl(value: string | undefined, protocols: string[], name: string, problems: string[]) {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (!protocols.includes(url.protocol)) {
      problems.push(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    }
    return value;
  } catch {
    problems.push(`${name} is not a valid URL`);
    return undefined;
  }
}

function portNumber(value: string, name: string, problems: string[]): number | undefined {
  const port = Number(value);
  if (/^\d+$/.test(value) && port >= 0 && port <= 65535) return port;
  problems.push(`${name} must be a port number between 0 and 65535 (got "${value}")`);
  return undefined;
}

/** A key is given as 64 hex characters or as base64/base64url of 32 bytes or more. */
function key(value: string | undefined, name: string, problems: string[]): Buffer | undefined {
  if (value === undefined) return undefined;
  const bytes = /^[0-9a-fA-F]+$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64url');
  if (bytes.length < 32) {
    problems.push(`${name} must hold at least 32 bytes (64 hex characters or 43 base64 characters)`);
    return undefined;
  }
  return bytes.subarray(0, 32);
}

/** A comma-separated list of https URLs (allow-lists of outbound destinations). */
function httpsUrls(value: string | undefined, name: string, problems: string[]): string[] {
  const entries = (value ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (!/^https:\/\/[^\s/]+/.test(entry) || !URL.canParse(entry)) problems.push(`${name} must list https:// URLs (got "${entry}")`);
  }
  return entries;
}

/** The audit streaming sinks (§13): a syslog URL with a port, an https HEC URL that comes with its token. */
function auditStreaming(read: (name: string) => string | undefined, problems: string[]) {
  const auditSyslogUrl = read('AUDIT_SYSLOG_URL');
  if (auditSyslogUrl !== undefined) {
    const url = URL.canParse(auditSyslogUrl) ? new URL(auditSyslogUrl) : undefined;
    if (!url || !['tcp:', 'tls:'].includes(url.protocol) || !url.hostname || !url.port || url.pathname.length > 1 || url.username) {
      problems.push(`AUDIT_SYSLOG_URL must be tcp://host:port or tls://host:port (got "${auditSyslogUrl}")`);
    }
  }
  const auditHecUrl = read('AUDIT_HEC_URL');
  const auditHecToken = read('AUDIT_HEC_TOKEN');
  if (auditHecUrl !== undefined && (!/^https:\/\/[^\s/@]+/.test(auditHecUrl) || !URL.canParse(auditHecUrl))) {
    problems.push(`AUDIT_HEC_URL must be an https:// URL without credentials (got "${auditHecUrl}")`);
  }
  if (Boolean(auditHecUrl) !== Boolean(auditHecToken)) problems.push('AUDIT_HEC_URL and AUDIT_HEC_TOKEN must be set together');
  if (auditHecToken !== undefined && /[\s"]/.test(auditHecToken)) problems.push('AUDIT_HEC_TOKEN must be one word');
  return { auditSyslogUrl, auditHecUrl, auditHecToken };
}

function parseTrustProxy(value: string | undefined): false | string[] {
  if (value === undefined || value === 'false' || value === 'none') return false;
  return value.split(',').map((entry) => entry.trim()).filter(Boolean);
}

/** Development only: keys generated once and kept under DATA_DIR so restarts keep working. */
function developmentSecrets(dataDir: string): { secretPepper: Buffer; keyEncryptionKey: Buffer } {
  const file = join(dataDir, DEV_SECRETS_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const fresh = {
      secretPepper: randomBytes(32).toString('hex'),
      keyEncryptionKey: randomBytes(32).toString('hex'),
    };
    writeFileSync(file, JSON.stringify(fresh, null, 2), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  }
  const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  return {
    secretPepper: Buffer.from(stored.secretPepper, 'hex'),
    keyEncryptionKey: Buffer.from(stored.keyEncryptionKey, 'hex'),
  };
}
