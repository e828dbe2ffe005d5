import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { ConfidentialClientApplication } from '@azure/msal-node';
import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devTlsNotice, ensureDevCertificate } from '@gatehouse/http';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { trustOnly } from './support/client-certificates.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

/** DEV_TLS=1: the identity app serves https with a generated certificate that MSAL accepts once trusted. */
describe('DEV_TLS', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let restore: () => void = () => undefined;
  let port: number;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    port = await freePort();
    const config = testConfig(database.url, { publicUrl: `https://localhost:${port}`, devTls: true });
    dataDir = config.dataDir;
    app = await createIdentityApp({ config, logDestination: new LogCapture() });
    await app.listen(port, '127.0.0.1');
    restore = await trustOnly(readFileSync(ensureDevCertificate(dataDir).certFile, 'utf8'));
  });

  afterAll(async () => {
    restore();
    await app?.close();
    await database?.drop();
  });

  it('generates the certificate once under DATA_DIR (key 0600), for localhost and 127.0.0.1, and prints the NODE_EXTRA_CA_CERTS line', () => {
    const files = ensureDevCertificate(dataDir);
    expect(files.certFile).toBe(`${dataDir}/dev-tls/certificate.pem`);
    expect(statSync(files.keyFile).mode & 0o777).toBe(0o600);
    const certificate = new X509Certificate(readFileSync(files.certFile));
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    const pem = readFileSync(files.certFile, 'utf8');
    expect(ensureDevCertificate(dataDir)).toEqual(files);
    expect(readFileSync(files.certFile, 'utf8')).toBe(pem); // made once, kept while valid
    expect(devTlsNotice(dataDir)).toContain(`\n  NODE_EXTRA_CA_CERTS=${files.certFile}\n`);
  });

  it('MSAL Node gets a token over it with only the authority and knownAuthorities set', async () => {
    const fx = new TokenFixtures(app, testConfig(database.url).secretPepper);
    const tenant = await fx.tenant();
    const orders = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    const msal = new ConfidentialClientApplication({
      auth: {
        clientId: client.clientId,
        clientSecret: client.secret,
        authority: `https://localhost:${port}/${tenant.id}`,
        knownAuthorities: [`localhost:${port}`],
      },
    });
    const result = await msal.acquireTokenByClientCredential({ scopes: ['api://orders/.default'] });
    expect(result?.accessToken).toEqual(expect.any(String));
  });
});
