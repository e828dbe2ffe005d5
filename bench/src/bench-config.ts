import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '@gatehouse/config';

/** Production settings (info logs, production mode) against the benchmark's own database. */
export function benchConfig(options: { databaseUrl: string; publicUrl: string; pepper: Buffer; kek: Buffer }): AppConfig {
  return {
    nodeEnv: 'production',
    databaseUrl: options.databaseUrl,
    dataDir: mkdtempSync(join(tmpdir(), 'gatehouse-bench-')),
    publicUrl: options.publicUrl,
    port: 0,
    adminPort: 0,
    host: '127.0.0.1',
    managementPort: 0,
    adminPublicUrl: 'http://localhost:3001',
    smtpUrl: undefined,
    mailFrom: 'Gatehouse <no-reply@localhost>',
    secretPepper: options.pepper,
    keyEncryptionKey: options.kek,
    tlsCertFile: undefined,
    tlsKeyFile: undefined,
    trustProxy: false,
    logLevel: 'info',
    tokenOutageGraceSeconds: 600,
    tokenCacheClients: 150_000,
    tokenWarmUpRequests: 20_000,
    tokenPreloadClients: 150_000,
    lastUseTracking: true,
    lastUseFlushSeconds: 60,
    devTls: false,
    mailRetryHours: 24,
    outboxLeaseSeconds: 20,
    shutdownTimeoutSeconds: 10,
    federationPrivateIssuers: [],
    webhookPrivateTargets: [],
    outboundCa: undefined,
    auditSyslogUrl: undefined,
    auditHecUrl: undefined,
    auditHecToken: undefined,
  };
}
