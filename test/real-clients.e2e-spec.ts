import { ConfidentialClientApplication } from '@azure/msal-node';
import type { INestApplication } from '@nestjs/common';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { trustOnly } from './support/client-certificates.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

/**
 * How this test process trusts the certificate it makes (trustOnly, in support/client-certificates.ts). MSAL Node 7 (its default HttpClient) and
 * openid-client 6 (and jose's createRemoteJWKSet) all call the global `fetch`, i.e. Node's
 * built-in undici. undici ignores `https.globalAgent`, and NODE_EXTRA_CA_CERTS is read only when
 * the process starts. What works in-process is undici's global dispatcher: Node keeps it under
 * `Symbol.for('undici.globalDispatcher.1')` (the same slot the `undici` package's
 * `setGlobalDispatcher` writes). The built-in Agent class is taken from the dispatcher Node created
 * and a new one, trusting our certificate, is put in its place for this test file (vitest runs each
 * file in its own process; the original is restored in afterAll). The clients get no custom
 * transport, no networkClient, no customFetch and no authorityMetadata: they discover and
 * authenticate exactly as they would against Entra ID.
 */
describe('real OAuth clients, unmodified, over https', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let plainApp: INestApplication;
  let fx: TokenFixtures;
  let authority: string;
  let plainAuthority: string;
  let restoreDispatcher: () => void = () => undefined;
  let tenant: { id: string; slug: string };
  let orders: Awaited<ReturnType<TokenFixtures['api']>>;
  let client: Awaited<ReturnType<TokenFixtures['readyClient']>>;
  const logs = new LogCapture();

  beforeAll(async () => {
    database = await createTestDatabase();
    const [port, plainPort] = [await freePort(), await freePort()];
    const certificate = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    restoreDispatcher = await trustOnly(certificate.cert);
    const config = testConfig(database.url, { publicUrl: `https://localhost:${port}` });
    app = await createIdentityApp({
      config,
      logDestination: logs,
      https: { cert: certificate.cert, key: certificate.private },
    });
    await app.listen(port, '127.0.0.1');
    // The same database behind a plain-http replica, for openid-client's allowInsecureRequests.
    const plainConfig = testConfig(database.url, { publicUrl: `http://127.0.0.1:${plainPort}` });
    plainApp = await createIdentityApp({ config: plainConfig, logDestination: logs });
    await plainApp.listen(plainPort, '127.0.0.1');
    fx = new TokenFixtures(app, config.secretPepper);
    tenant = await fx.tenant();
    orders = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read', 'Orders.Write'] });
    client = await fx.readyClient(tenant.id, orders, ['Orders.Read', 'Orders.Write']);
    authority = `https://localhost:${port}/${tenant.id}`;
    plainAuthority = `http://127.0.0.1:${plainPort}/${tenant.id}`;
  });

  afterAll(async () => {
    restoreDispatcher();
    await plainApp?.close();
    await app?.close();
    await database?.drop();
  });

  /** Verifies against the JWKS named by the server's own discovery document. */
  async function verify(accessToken: string, base = authority) {
    const discovery = (await (await fetch(`${base}/v2.0/.well-known/openid-configuration`)).json()) as {
      jwks_uri: string;
    };
    return jwtVerify(accessToken, createRemoteJWKSet(new URL(discovery.jwks_uri)), {
      issuer: `${base}/v2.0`,
      audience: orders.appId,
      typ: 'JWT',
    });
  }

  it('@azure/msal-node ConfidentialClientApplication.acquireTokenByClientCredential', async () => {
    const msal = new ConfidentialClientApplication({
      auth: {
        clientId: client.clientId,
        clientSecret: client.secret,
        authority,
        knownAuthorities: [new URL(authority).host],
      },
    });
    const result = await msal.acquireTokenByClientCredential({ scopes: ['api://orders/.default'] });
    expect(result?.accessToken).toEqual(expect.any(String));
    expect(result?.tokenType).toBe('Bearer');
    expect(result?.expiresOn!.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    const { payload, protectedHeader } = await verify(result!.accessToken);
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(payload).toMatchObject({
      client_id: client.clientId,
      roles: ['Orders.Read', 'Orders.Write'],
      tid: tenant.id,
    });
  });

  it('@azure/msal-node with a wrong secret surfaces the Entra error code', async () => {
    const msal = new ConfidentialClientApplication({
      auth: {
        clientId: client.clientId,
        clientSecret: 'wrong',
        authority,
        knownAuthorities: [new URL(authority).host],
      },
    });
    await expect(msal.acquireTokenByClientCredential({ scopes: ['api://orders/.default'] })).rejects.toMatchObject({
      errorCode: 'invalid_client',
      errorMessage: expect.stringContaining('AADSTS7000215'),
    });
  });

  it('openid-client v6 discovery() + clientCredentialsGrant() (client_secret_post)', async () => {
    const config = await oidc.discovery(new URL(`${authority}/v2.0`), client.clientId, client.secret);
    expect(config.serverMetadata().issuer).toBe(`${authority}/v2.0`);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'api://orders/Orders.Read' });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.refresh_token).toBeUndefined();
    const { payload } = await verify(tokens.access_token);
    expect(payload.roles).toEqual(['Orders.Read']);
  });

  it('openid-client with client_secret_basic', async () => {
    const config = await oidc.discovery(
      new URL(`${authority}/v2.0`),
      client.clientId,
      undefined,
      oidc.ClientSecretBasic(client.secret),
    );
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'api://orders/.default' });
    const { payload } = await verify(tokens.access_token);
    expect(payload.roles).toEqual(['Orders.Read', 'Orders.Write']);
  });

  it('openid-client over plain http with allowInsecureRequests', async () => {
    const config = await oidc.discovery(new URL(`${plainAuthority}/v2.0`), client.clientId, client.secret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'api://orders/.default' });
    const { payload } = await verify(tokens.access_token, plainAuthority);
    expect(payload.iss).toBe(`${plainAuthority}/v2.0`);
  });

  it('no secret in the logs', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.text).not.toContain(client.secret);
  });
});
