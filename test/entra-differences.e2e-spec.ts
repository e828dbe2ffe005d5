import type { INestApplication } from '@nestjs/common';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '@gatehouse/database';
import { ENTITIES, MIGRATIONS } from '@gatehouse/schema';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { EntraTokenTypeAndScopeRequests1795845107312 } from '../migrations/1795845107312-EntraTokenTypeAndScopeRequests.js';
import { AdminFixtures } from './support/admin-fixtures.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

/**
 * Where Gatehouse answered differently from Entra (DESIGN §3.1, §3.2): v2 tokens carry `typ: JWT`
 * (what Spring Security and Nimbus accept by default; `at+jwt` stays available per API), a resource
 * naming no API is AADSTS500011, the v1 endpoint answers with Entra's v1 fields and string numbers,
 * and a tenant may allow `.default` scopes only (AADSTS1002012).
 */
describe('Entra differences', () => {
  let database: TestDatabase;
  let identity: INestApplication;
  let admin: INestApplication;
  let base: string;
  let adminToken: string;
  let tenantId: string;
  let client: { clientId: string; secret: string };
  let ordersId: string;
  let appId: string;

  const adminCall = (method: 'get' | 'patch' | 'post' | 'put', path: string, body?: object) =>
    request(admin.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${adminToken}`).send(body);
  const token = async (fields: Record<string, string>, path = 'oauth2/v2.0/token') => {
    const response = await fetch(`${base}/${tenantId}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret, ...fields }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const config = testConfig(database.url, { publicUrl: base });
    identity = await createIdentityApp({ config, logDestination: new LogCapture() });
    await identity.listen(port, '127.0.0.1');
    admin = await createAdminApp({ config, logDestination: new LogCapture() });
    await admin.init();
    const fixtures = new AdminFixtures(admin, config);
    const tenant = await fixtures.tenant();
    tenantId = tenant.tenantId;
    adminToken = (await fixtures.operator(tenant, ['Administrator'])).token;
    const api = await adminCall('post', '/apis', { identifier: 'api://orders', displayName: 'Orders' });
    ({ id: ordersId, appId } = api.body);
    await adminCall('post', `/apis/${ordersId}/scopes`, { value: 'Orders.Read' });
    const tokens = new TokenFixtures(identity, config.secretPepper);
    const created = await tokens.client(tenantId);
    await tokens.grant(tenantId, created.id, [(await tokens.dataSource.query(`SELECT id FROM api_scopes WHERE api_id = $1`, [ordersId]))[0].id]);
    client = { clientId: created.clientId, secret: (await tokens.secret(tenantId, created.id)).value };
  });

  afterAll(async () => {
    await identity?.close();
    await admin?.close();
    await database?.drop();
  });

  it('v2 tokens carry typ JWT and pass a verifier that expects it; an API may choose at+jwt', async () => {
    expect((await adminCall('get', `/apis/${ordersId}`)).body.accessTokenTyp).toBe('JWT');
    const issued = await token({ scope: 'api://orders/.default' });
    const jwks = createRemoteJWKSet(new URL(`${base}/${tenantId}/discovery/v2.0/keys`));
    const { protectedHeader } = await jwtVerify(issued.body.access_token as string, jwks, { issuer: `${base}/${tenantId}/v2.0`, audience: appId, typ: 'JWT' });
    expect(protectedHeader.typ).toBe('JWT');
    const changed = await adminCall('patch', `/apis/${ordersId}`, { accessTokenTyp: 'at+jwt' });
    expect(changed.body.accessTokenTyp).toBe('at+jwt');
    await expect
      .poll(async () => decodeProtectedHeader((await token({ scope: 'api://orders/.default' })).body.access_token as string).typ)
      .toBe('at+jwt');
    expect((await adminCall('patch', `/apis/${ordersId}`, { accessTokenTyp: 'jwt' })).status).toBe(400);
    await adminCall('patch', `/apis/${ordersId}`, { accessTokenTyp: 'JWT' });
  });

  it('a resource that names no API: 400 invalid_resource, AADSTS500011 in Entra’s words', async () => {
    for (const fields of [{ scope: 'api://billing/.default' }, { resource: 'api://billing' }] as Array<Record<string, string>>) {
      const refused = await token(fields, 'resource' in fields ? 'oauth2/token' : 'oauth2/v2.0/token');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'invalid_resource', error_codes: [500011] });
      expect(refused.body.error_description).toMatch(
        /^AADSTS500011: The resource principal named api:\/\/billing was not found in the tenant named t-[0-9a-f]{8}\. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant\. You might have sent your authentication request to the wrong tenant\./,
      );
    }
  });

  it('the v1 endpoint answers as Entra’s v1 does: expires_on, not_before, resource, every number a string', async () => {
    const before = Math.floor(Date.now() / 1000);
    const answer = await token({ resource: 'api://orders' }, 'oauth2/token');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['token_type', 'expires_in', 'ext_expires_in', 'expires_on', 'not_before', 'resource', 'access_token']);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: '3599', ext_expires_in: '3599', resource: 'api://orders' });
    const notBefore = Number(answer.body.not_before);
    expect(notBefore).toBeGreaterThanOrEqual(before);
    expect(Number(answer.body.expires_on)).toBe(notBefore + 3599);
    const claims = JSON.parse(Buffer.from((answer.body.access_token as string).split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ nbf: notBefore, exp: notBefore + 3599 });
    // The v2 endpoint keeps its own answer.
    expect(Object.keys((await token({ scope: 'api://orders/.default' })).body).sort()).toEqual(['access_token', 'expires_in', 'ext_expires_in', 'token_type']);
  });

  it('scopeRequests "entra": only {resource}/.default, else 400 invalid_scope AADSTS1002012 in Entra’s words', async () => {
    expect((await adminCall('get', '/tenant')).body.scopeRequests).toBe('extended');
    expect((await token({ scope: 'api://orders/Orders.Read' })).status).toBe(200);
    expect((await adminCall('patch', '/tenant', { scopeRequests: 'entra' })).body.scopeRequests).toBe('entra');
    await expect.poll(async () => (await token({ scope: 'api://orders/Orders.Read' })).status).toBe(400);
    const refused = await token({ scope: 'api://orders/Orders.Read' });
    expect(refused.body).toMatchObject({ error: 'invalid_scope', error_codes: [1002012] });
    expect(refused.body.error_description).toMatch(
      /^AADSTS1002012: The provided value for scope api:\/\/orders\/Orders\.Read is not valid\. Client credential flows must have a scope value with \/\.default suffixed to the resource identifier \(application ID URI\)\./,
    );
    expect((await token({ scope: 'api://orders/.default' })).status).toBe(200);
    expect((await token({ resource: 'api://orders' }, 'oauth2/token')).status).toBe(200);
    expect((await adminCall('patch', '/tenant', { scopeRequests: 'strict' })).status).toBe(400);
    await adminCall('patch', '/tenant', { scopeRequests: 'extended' });
    await expect.poll(async () => (await token({ scope: 'api://orders/Orders.Read' })).status).toBe(200);
  });

  it('the migration keeps at+jwt for v2 APIs that existed before it (their resource servers check it)', async () => {
    const scratch = await createTestDatabase();
    const dataSource = new DataSource(dataSourceOptions({ url: scratch.url, entities: ENTITIES, migrations: MIGRATIONS, poolSize: 1 }));
    await dataSource.initialize();
    const migration = new EntraTokenTypeAndScopeRequests1795845107312();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      const [tenant] = await runner.query(`INSERT INTO tenants (slug, display_name) VALUES ('old', 'Old') RETURNING id`);
      for (const [identifier, version] of [['api://v2', 2], ['api://v1', 1]] as const) {
        await runner.query(
          `INSERT INTO apis (tenant_id, app_id, identifier, display_name, access_token_version) VALUES ($1, gen_random_uuid(), $2, $2, $3)`,
          [tenant.id, identifier, version],
        );
      }
      await migration.up(runner);
      expect(await runner.query(`SELECT identifier, access_token_typ FROM apis ORDER BY identifier`)).toEqual([
        { identifier: 'api://v1', access_token_typ: 'JWT' },
        { identifier: 'api://v2', access_token_typ: 'at+jwt' },
      ]);
      expect(await runner.query(`SELECT scope_requests FROM tenants`)).toEqual([{ scope_requests: 'extended' }]);
    } finally {
      await runner.release();
      await dataSource.destroy();
      await scratch.drop();
    }
  });
});
