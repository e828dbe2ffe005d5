import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './app-config.js';
import { loadConfig } from './load-config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'gatehouse-config-'));
const KEY = 'ab'.repeat(32);

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      nodeEnv: 'development',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      port: 3000,
      adminPort: 3001,
      adminPublicUrl: 'http://localhost:3001',
      smtpUrl: undefined,
      mailFrom: 'Gatehouse <no-reply@localhost>',
      trustProxy: false,
      logLevel: 'info',
      tokenOutageGraceSeconds: 600,
      tokenCacheClients: 150_000,
      tokenWarmUpRequests: 20_000,
      tokenPreloadClients: 150_000,
      lastUseTracking: true,
      lastUseFlushSeconds: 60,
      devTls: false,
    });
  });

  it('TOKEN_CACHE_CLIENTS bounds the token cache with a whole number of at least 1', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), TOKEN_CACHE_CLIENTS: '2000000' }).tokenCacheClients).toBe(2_000_000);
    expect(problemsOf({ DATA_DIR: dataDir(), TOKEN_CACHE_CLIENTS: '0' })).toEqual([
      'TOKEN_CACHE_CLIENTS must be a whole number from 1 to 999999999 (got "0")',
    ]);
  });

  it('TOKEN_WARMUP_REQUESTS takes 0 (no warm-up) up to a million', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), TOKEN_WARMUP_REQUESTS: '0' }).tokenWarmUpRequests).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir(), TOKEN_WARMUP_REQUESTS: '5000' }).tokenWarmUpRequests).toBe(5_000);
    expect(problemsOf({ DATA_DIR: dataDir(), TOKEN_WARMUP_REQUESTS: 'lots' })).toEqual([
      'TOKEN_WARMUP_REQUESTS must be a whole number from 0 to 1000000 (got "lots")',
    ]);
  });

  it('TOKEN_PRELOAD_CLIENTS takes 0 (no preload) or a number of clients', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), TOKEN_PRELOAD_CLIENTS: '0' }).tokenPreloadClients).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir(), TOKEN_PRELOAD_CLIENTS: '1000000' }).tokenPreloadClients).toBe(1_000_000);
    expect(problemsOf({ DATA_DIR: dataDir(), TOKEN_PRELOAD_CLIENTS: '-5' })).toEqual([
      'TOKEN_PRELOAD_CLIENTS must be a whole number from 0 to 999999999 (got "-5")',
    ]);
  });

  it('DEV_TLS=1 makes the default PUBLIC_URL https; TOKEN_OUTAGE_GRACE_SECONDS takes whole seconds, 0 included', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), DEV_TLS: '1', TOKEN_OUTAGE_GRACE_SECONDS: '0' })).toMatchObject({
      devTls: true,
      publicUrl: 'https://localhost:3000',
      tokenOutageGraceSeconds: 0,
    });
    expect(problemsOf({ DATA_DIR: dataDir(), DEV_TLS: 'maybe', TOKEN_OUTAGE_GRACE_SECONDS: '-5' })).toEqual([
      'DEV_TLS must be 1 or 0 (got "maybe")',
      'TOKEN_OUTAGE_GRACE_SECONDS must be a whole number of seconds (got "-5")',
    ]);
    expect(
      problemsOf({ DATA_DIR: dataDir(), DEV_TLS: '1', NODE_ENV: 'production', SECRET_PEPPER: KEY, KEY_ENCRYPTION_KEY: KEY }),
    ).toEqual(['DEV_TLS is for development; set TLS_CERT_FILE and TLS_KEY_FILE in production']);
  });

  it('reads the outbound allow-lists as https URLs and OUTBOUND_CA_FILE as a PEM file', () => {
    const dir = dataDir();
    const config = loadConfig({
      DATA_DIR: dir,
      FEDERATION_PRIVATE_ISSUERS: 'https://issuer.cluster.local, https://10.0.0.5:8443/realm',
      WEBHOOK_PRIVATE_TARGETS: '',
    });
    expect(config.federationPrivateIssuers).toEqual(['https://issuer.cluster.local', 'https://10.0.0.5:8443/realm']);
    expect(config.webhookPrivateTargets).toEqual([]);
    expect(config.outboundCa).toBeUndefined();
    const problems = problemsOf({ DATA_DIR: dir, WEBHOOK_PRIVATE_TARGETS: 'http://hooks.local', OUTBOUND_CA_FILE: join(dir, 'none.pem') });
    expect(problems).toEqual([
      'WEBHOOK_PRIVATE_TARGETS must list https:// URLs (got "http://hooks.local")',
      'OUTBOUND_CA_FILE names a file that does not exist',
    ]);
  });

  it('generates development keys once into DATA_DIR, readable by the owner only', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.secretPepper.equals(second.secretPepper)).toBe(true);
    expect(first.keyEncryptionKey).toHaveLength(32);
    expect(statSync(join(dir, 'dev-secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('refuses to start in production without keys, naming each variable', () => {
    const problems = problemsOf({ NODE_ENV: 'production', DATA_DIR: dataDir() });
    expect(problems).toEqual([
      'SECRET_PEPPER is required when NODE_ENV=production',
      'KEY_ENCRYPTION_KEY is required when NODE_ENV=production',
    ]);
  });

  it('names every malformed variable at once', () => {
    const problems = problemsOf({
      DATA_DIR: dataDir(),
      DATABASE_URL: 'mysql://x',
      PUBLIC_URL: 'not a url',
      PORT: '70000',
      ADMIN_PORT: 'abc',
      SMTP_URL: 'http://mail',
      SECRET_PEPPER: 'short',
      LOG_LEVEL: 'loud',
      NODE_ENV: 'staging',
      TLS_CERT_FILE: '/nonexistent/cert.pem',
    });
    const named = problems.map((p) => p.split(' ')[0]);
    expect(named).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'PUBLIC_URL',
        'PORT',
        'ADMIN_PORT',
        'SMTP_URL',
        'SECRET_PEPPER',
        'LOG_LEVEL',
        'NODE_ENV',
        'TLS_CERT_FILE',
      ]),
    );
  });

  it('derives ADMIN_PUBLIC_URL from ADMIN_PORT unless given, and checks it', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), ADMIN_PORT: '4001' }).adminPublicUrl).toBe('http://localhost:4001');
    expect(loadConfig({ DATA_DIR: dataDir(), ADMIN_PUBLIC_URL: 'https://admin.example.com/' }).adminPublicUrl).toBe(
      'https://admin.example.com',
    );
    expect(problemsOf({ DATA_DIR: dataDir(), ADMIN_PUBLIC_URL: 'ftp://x' })[0]).toMatch(/^ADMIN_PUBLIC_URL/);
  });

  it('accepts keys as hex or base64url and strips a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      SECRET_PEPPER: KEY,
      KEY_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64url'),
      PUBLIC_URL: 'https://id.example.com/',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
      NODE_ENV: 'production',
    });
    expect(config.secretPepper.toString('hex')).toBe(KEY);
    expect(config.keyEncryptionKey.equals(Buffer.alloc(32, 3))).toBe(true);
    expect(config.publicUrl).toBe('https://id.example.com');
    expect(config.trustProxy).toEqual(['loopback', '10.0.0.0/8']);
  });
});
