import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import express from 'express';
import { SignJWT, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokenValidator, bearer } from '@gatehouse/resource-server';
import { SigningKeyService, issuerOf } from '@gatehouse/tokens';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { createOrdersApi } from '../apps/orders-api/src/orders-api.app.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

/**
 * ACCESS-SPEC §5.2 steps 3–5 with the resource-server guard: a token from Gatehouse opens the
 * sample API; a wrong audience, an expired token, a missing role or no token are refused with
 * RFC 6750's status and WWW-Authenticate; v1 and v2 tokens both work.
 */
describe('resource-server guard and the sample API', () => {
  let database: TestDatabase;
  let identity: INestApplication;
  let orders: INestApplication;
  let fx: TokenFixtures;
  let identityUrl: string;
  let ordersUrl: string;
  let tenant: { id: string; slug: string };
  let ordersApi: Awaited<ReturnType<TokenFixtures['api']>>;
  let client: Awaited<ReturnType<TokenFixtures['readyClient']>>;

  async function token(fields: Record<string, string>, path = 'oauth2/v2.0/token'): Promise<string> {
    const response = await fetch(`${identityUrl}/${tenant.id}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.secret,
        ...fields,
      }),
    });
    const body = (await response.json()) as { access_token: string };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body.access_token;
  }
  const call = (accessToken: string | undefined, method = 'GET', base = ordersUrl) =>
    fetch(`${base}/orders`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(accessToken === undefined ? {} : { authorization: `Bearer ${accessToken}` }),
      },
      body: method === 'POST' ? JSON.stringify({ item: 'pencils' }) : undefined,
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    const [port, ordersPort] = [await freePort(), await freePort()];
    identityUrl = `http://127.0.0.1:${port}`;
    const config = testConfig(database.url, { publicUrl: identityUrl });
    identity = await createIdentityApp({ config, logDestination: new LogCapture() });
    await identity.listen(port, '127.0.0.1');
    fx = new TokenFixtures(identity, config.secretPepper);
    tenant = await fx.tenant();
    ordersApi = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read', 'Orders.Write'] });
    await fx.api(tenant.id, { identifier: 'api://billing', scopes: ['Billing.Read'] });
    client = await fx.readyClient(tenant.id, ordersApi, ['Orders.Read']);
    const billing = await fx.dataSource.query(
      `SELECT s.id FROM api_scopes s JOIN apis a ON a.id = s.api_id WHERE a.identifier = 'api://billing'`,
    );
    await fx.grant(tenant.id, client.id, [billing[0].id as string]);
    // The API accepts its app id (v2 tokens) and its identifier URI (v1 tokens), as a migrated Entra API does.
    orders = await createOrdersApi({
      authority: `${identityUrl}/${tenant.id}`,
      audience: [ordersApi.appId, 'api://orders'],
    });
    ordersUrl = `http://127.0.0.1:${ordersPort}`;
    await orders.listen(ordersPort, '127.0.0.1');
  });

  afterAll(async () => {
    await orders?.close();
    await identity?.close();
    await database?.drop();
  });

  it('a v2 token from Gatehouse opens the API; the caller is its client', async () => {
    const response = await call(await token({ scope: 'api://orders/.default' }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ orders: [], caller: client.clientId });
  });

  it('no token → 401 with a bare challenge; a malformed header → 400-class invalid_request', async () => {
    const none = await call(undefined);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="orders"');
    const malformed = await fetch(`${ordersUrl}/orders`, { headers: { authorization: 'Basic abc' } });
    expect(malformed.status).toBe(401);
    expect(malformed.headers.get('www-authenticate')).toMatch(/^Bearer realm="orders", error="invalid_request"/);
  });

  it('a token for another API → 401 invalid_token', async () => {
    const response = await call(await token({ scope: 'api://billing/.default' }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="orders", error="invalid_token", error_description="The token's aud claim/,
    );
  });

  it('an expired token → 401 invalid_token; a tampered one too', async () => {
    const signer = await identity.get(SigningKeyService).signer(tenant.id);
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ azp: client.clientId, roles: ['Orders.Read'], ver: '2.0', tid: tenant.id })
      .setProtectedHeader({ alg: signer.alg, kid: signer.kid, typ: 'at+jwt' })
      .setIssuer(issuerOf(identityUrl, tenant.id))
      .setAudience(ordersApi.appId)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .setJti(randomUUID())
      .sign(signer.key);
    const response = await call(expired);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      'error="invalid_token", error_description="The token has expired."',
    );
    const valid = await token({ scope: 'api://orders/.default' });
    const [h, p, s] = valid.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, roles: ['Orders.Read', 'Orders.Write'] })).toString('base64url')}.${s}`;
    expect((await call(tampered, 'POST')).status).toBe(401);
  });

  it('a missing role → 403 insufficient_scope naming it', async () => {
    const response = await call(await token({ scope: 'api://orders/.default' }), 'POST');
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="orders", error="insufficient_scope", error_description="The token lacks the role Orders.Write.", scope="Orders.Write"',
    );
  });

  it('a v1 API: the v1 endpoint with resource= gives an Entra v1 token that the API validates with aud = api://orders', async () => {
    await fx.change(`UPDATE apis SET access_token_version = 1 WHERE id = $1`, [ordersApi.id], {
      kind: 'tenant',
      tenantId: tenant.id,
      id: '*',
    });
    await fx.settle();
    const v1 = await token({ resource: 'api://orders' }, 'oauth2/token');
    expect(decodeProtectedHeader(v1).typ).toBe('JWT');
    const claims = JSON.parse(Buffer.from(v1.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({
      aud: 'api://orders',
      iss: `${identityUrl}/${tenant.id}/`,
      idp: `${identityUrl}/${tenant.id}/`,
      appid: client.clientId,
      appidacr: '1',
      oid: client.id,
      sub: client.id,
      tid: tenant.id,
      roles: ['Orders.Read'],
      ver: '1.0',
      jti: expect.any(String),
      uti: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    expect(claims).not.toHaveProperty('azp');
    const response = await call(v1);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { caller: string }).caller).toBe(client.clientId);
    // The token version is the API's: the v2 endpoint gives the same v1 shape; the v1 endpoint needs resource.
    expect(decodeProtectedHeader(await token({ scope: 'api://orders/.default' })).typ).toBe('JWT');
    const missing = await fetch(`${identityUrl}/${tenant.id}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.secret,
        scope: 'api://orders/.default',
      }),
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error_codes: number[] }).error_codes).toEqual([900144]);
  });

  it('the Express middleware guards the same way', async () => {
    const app = express();
    const validator = new AccessTokenValidator({
      authority: `${identityUrl}/${tenant.slug}`,
      audience: 'api://orders',
    });
    app.get('/orders', bearer(validator, ['Orders.Read'], 'express'), (_req, res) => void res.json({ ok: true }));
    app.post('/orders', bearer(validator, ['Orders.Write'], 'express'), (_req, res) => void res.json({ ok: true }));
    const port = await freePort();
    const server = app.listen(port, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${port}`;
      const v1 = await token({ resource: 'api://orders' }, 'oauth2/token');
      expect((await call(v1, 'GET', base)).status).toBe(200);
      expect((await call(v1, 'POST', base)).status).toBe(403);
      expect((await call(undefined, 'GET', base)).headers.get('www-authenticate')).toBe('Bearer realm="express"');
    } finally {
      server.close();
    }
  });
});
