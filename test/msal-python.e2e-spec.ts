import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { makeCertificate, tlsCertificate } from './support/client-certificates.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

const run = promisify(execFile);
/** Debian's python3-msal (`apt-get install python3-msal`; .ci/run installs it). */
const PYTHON = '/usr/bin/python3';
const available = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import msal'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!available)('MSAL Python (python3-msal), unmodified but for the authority, over https', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let dir: string;
  let caFile: string;
  let authority: string;
  let fx: TokenFixtures;
  let tenantId: string;
  let orders: Awaited<ReturnType<TokenFixtures['api']>>;

  const snippet = (env: Record<string, string>) =>
    run(PYTHON, [join(import.meta.dirname, 'snippets/msal_python.py')], {
      env: { PATH: process.env.PATH ?? '', REQUESTS_CA_BUNDLE: caFile, AUTHORITY: authority, ...env },
      timeout: 30_000,
    }).then(({ stdout }) => JSON.parse(stdout) as Record<string, unknown>);

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-msal-python-'));
    const tls = await tlsCertificate();
    caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, tls.cert);
    const port = await freePort();
    const config = testConfig(database.url, { publicUrl: `https://localhost:${port}` });
    app = await createIdentityApp({
      config,
      logDestination: new LogCapture(),
      https: { cert: tls.cert, key: tls.key },
    });
    await app.listen(port, '127.0.0.1');
    fx = new TokenFixtures(app, config.secretPepper);
    tenantId = (await fx.tenant()).id;
    orders = await fx.api(tenantId, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    authority = `https://localhost:${port}/${tenantId}`;
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('with a client secret', async () => {
    const client = await fx.readyClient(tenantId, orders, ['Orders.Read']);
    expect(await snippet({ CLIENT_ID: client.clientId, CLIENT_SECRET: client.secret })).toMatchObject({
      azp: client.clientId,
      azpacr: '1',
      roles: ['Orders.Read'],
    });
  });

  it('with a certificate (RS256 + x5t)', async () => {
    const client = await fx.readyClient(tenantId, orders, ['Orders.Read']);
    const certificate = makeCertificate();
    await fx.dataSource.query(
      `INSERT INTO client_certificates (tenant_id, api_client_id, key_id, thumbprint, x5t, x5t_s256, subject, not_before, not_after, certificate_der)
       VALUES ($1, $2, gen_random_uuid(), $3, $4, $5, 'CN=daemon', now() - interval '1 hour', now() + interval '1 year', $6)`,
      [tenantId, client.id, certificate.sha1Hex, certificate.x5t, certificate.x5tS256, certificate.der],
    );
    await fx.change('SELECT 1', [], { kind: 'client', tenantId, id: client.clientId });
    await fx.settle();
    const claims = await snippet({
      CLIENT_ID: client.clientId,
      PRIVATE_KEY_PEM: certificate.privateKeyPem,
      THUMBPRINT: certificate.sha1Hex,
    });
    expect(claims).toMatchObject({ azp: client.clientId, azpacr: '2', tid: tenantId });
  });
});
