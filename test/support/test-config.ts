import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '@gatehouse/config';

/** A complete configuration for tests: fixed keys, a temporary data directory, quiet logs. */
export function testConfig(databaseUrl: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    nodeEnv: 'test',
    databaseUrl,
    dataDir: mkdtempSync(join(tmpdir(), 'gatehouse-test-')),
    publicUrl: 'http://localhost:3000',
    port: 0,
    adminPort: 0,
    host: '127.0.0.1',
    managementPort: 0,
    adminPublicUrl: 'http://localhost:3001',
    smtpUrl: undefined,
    mailFrom: 'Gatehouse <no-reply@localhost>',
    secretPepper: Buffer.alloc(32, 0x11),
    keyEncryptionKey: Buffer.alloc(32, 0x22),
    tlsCertFile: undefined,
    tlsKeyFile: undefined,
    trustProxy: false,
    logLevel: 'warn',
    tokenOutageGraceSeconds: 600,
    tokenCacheClients: 150_000,
    tokenWarmUpRequests: 0,
    tokenPreloadClients: 0,
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
    ...overrides,
  };
}
