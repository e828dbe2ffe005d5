import { request as httpsRequest } from 'node:https';
import { ConfidentialClientApplication, type INetworkModule, type NetworkResponse } from '@azure/msal-node';
import type { INestApplication } from '@nestjs/common';
import { createLocalJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * How the test process trusts the certificate it made: MSAL Node 7 and openid-client both use the
 * global `fetch` (undici), which ignores `https.globalAgent` and reads NODE_EXTRA_CA_CERTS only at
 * process start. Both libraries take a documented transport hook instead (MSAL:
 * `system.networkClient`; openid-client: `customFetch`), so each gets this tiny https client whose
 * only difference from the default is `ca: [our certificate]`. The libraries themselves are
 * unmodified: they build every request and check every response as they would against Entra.
 */
function trustingRequest(ca: string) {
  return (url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawResponse> =>
    new Promise((resolve, reject) => {
      const req = httpsRequest(url, { method, headers, ca: [ca] }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const flat: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = String(value);
          resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
}

function msalNetworkClient(ca: string): INetworkModule {
  const send = trustingRequest(ca);
  const toNetwork = <T>(raw: RawResponse): NetworkResponse<T> => ({ status: raw.status, headers: raw.headers, body: JSON.parse(raw.body) as T });
  return {
    sendGetRequestAsync: async <T>(url: string, options?: { headers?: Record<string, string> }) =>
      toNetwork<T>(await send(url, 'GET', options?.headers ?? {})),
    sendPostRequestAsync: async <T>(url: string, options?: { headers?: Record<string, string>; body?: string }) =>
      toNetwork<T>(await send(url, 'POST', options?.headers ?? {}, options?.body)),
  };
}

function trustingFetch(ca: string): oidc.CustomFetch {
  const send = trustingRequest(ca);
  return async (url, options) => {
    const headers: Record<string, string> = {};
    new Headers(options.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, name) => (headers[name] = value));
    const body = typeof options.body === 'string' || options.body === undefined ? options.body : String(options.body);
    const raw = await send(url, options.method ?? 'GET', headers, body);
    return new Response(raw.body, { status: raw.status, headers: raw.headers });
  };
}

describe('real OAuth clients, unmodified, over https', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let fx: TokenFixtures;
  let authority: string;
  let ca: string;
  let tenant: { id: string; slug: string };
  let orders: Awaited<ReturnType<TokenFixtures['api']>>;
  let client: Awaited<ReturnType<TokenFixtures['readyClient']>>;
  const logs = new LogCapture();

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    const certificate = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true },
        { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
      ],
    });
    ca = certificate.cert;
    const publicUrl = `https://localhost:${port}`;
    const config = testConfig(database.url, { publicUrl });
    app = await createIdentityApp({ config, logDestination: logs, https: { cert: certificate.cert, key: certificate.private } });
    await app.listen(port, '127.0.0.1');
    fx = new TokenFixtures(app, config.secretPepper);
    tenant = await fx.tenant();
    orders = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read', 'Orders.Write'] });
    client = await fx.readyClient(tenant.id, orders, ['Orders.Read', 'Orders.Write']);
    authority = `${publicUrl}/${tenant.id}`;
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  /** Verifies against the JWKS the server publishes (fetched through the same trusting transport). */
  async function verify(accessToken: string) {
    const keys = await trustingRequest(ca)(`${authority}/discovery/v2.0/keys`, 'GET', {});
    return jwtVerify(accessToken, createLocalJWKSet(JSON.parse(keys.body)), {
      issuer: `${authority}/v2.0`,
      audience: orders.appId,
      typ: 'at+jwt',
    });
  }

  it('@azure/msal-node ConfidentialClientApplication.acquireTokenByClientCredential', async () => {
    const port = new URL(authority).port;
    const msal = new ConfidentialClientApplication({
      auth: { clientId: client.clientId, clientSecret: client.secret, authority, knownAuthorities: [`localhost:${port}`] },
      system: { networkClient: msalNetworkClient(ca) },
    });
    const result = await msal.acquireTokenByClientCredential({ scopes: ['api://orders/.default'] });
    expect(result?.accessToken).toEqual(expect.any(String));
    expect(result?.tokenType).toBe('Bearer');
    const { payload } = await verify(result!.accessToken);
    expect(payload).toMatchObject({ client_id: client.clientId, roles: ['Orders.Read', 'Orders.Write'], tid: tenant.id });
  });

  it('openid-client v6 discovery() + clientCredentialsGrant()', async () => {
    const config = await oidc.discovery(new URL(`${authority}/v2.0`), client.clientId, client.secret, undefined, {
      [oidc.customFetch]: trustingFetch(ca),
    });
    config[oidc.customFetch] = trustingFetch(ca);
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
      { [oidc.customFetch]: trustingFetch(ca) },
    );
    config[oidc.customFetch] = trustingFetch(ca);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'api://orders/.default' });
    expect(tokens.access_token).toEqual(expect.any(String));
  });

  it('no secret in the logs', () => {
    expect(logs.text).not.toContain(client.secret);
  });
});
