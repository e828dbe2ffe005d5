import { execFileSync } from 'node:child_process';
import type { INestApplication } from '@nestjs/common';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { BootstrapService } from '@gatehouse/provisioning';
import type { INestApplicationContext } from '@nestjs/common';
import { createProvisioningContext } from '../apps/cli/src/provisioning.context.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Replicas hear of a change through Postgres NOTIFY, delivered at commit on another connection:
 * the next request may race it by a few milliseconds. Allow 500 ms, far below any token lifetime.
 */
/** A change reaches the identity app's caches by notification: allow it the second the topology test holds it to. */
async function untilAccepted(attempt: () => Promise<{ status: number; body: Json }>) {
  const deadline = Date.now() + 1000;
  for (;;) {
    const result = await attempt();
    if (result.status === 200 || Date.now() > deadline) return result;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function untilRefused(attempt: () => Promise<{ status: number; body: Json }>) {
  const deadline = Date.now() + 500;
  for (;;) {
    const result = await attempt();
    if (result.status !== 200 || Date.now() > deadline) return result;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The whole provisioning journey over HTTP, as people and machines do it: bootstrap, operators,
 * an API with scopes, a client with a secret, scope assignment, tokens that jose verifies.
 */
describe('provisioning flow, end to end', () => {
  let database: TestDatabase;
  let identity: INestApplication;
  let admin: INestApplication;
  let provisioning: INestApplicationContext;
  let publicUrl: string;
  let adminUrl: string;
  const logs = new LogCapture();
  const secretsSeen: string[] = [];
  const responses: string[] = [];

  let tenantId: string;
  let administrator: string;
  let contactPerson: string;
  let itDepartment: string;
  let orders: Json;
  let ordersClient: Json;
  let secretOne: string;
  let secretTwo: string;

  async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const response = await fetch(`${adminUrl}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    responses.push(text);
    return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
  }

  async function token(clientId: string, secret: string, scope: string, basic = false) {
    const form = new URLSearchParams({ grant_type: 'client_credentials', scope });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (basic) {
      const credentials = `${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    } else {
      form.set('client_id', clientId);
      form.set('client_secret', secret);
    }
    const response = await fetch(`${publicUrl}/${tenantId}/oauth2/v2.0/token`, { method: 'POST', headers, body: form });
    const text = await response.text();
    responses.push(text);
    return { status: response.status, body: JSON.parse(text) as Json };
  }

  async function operator(username: string, role: string): Promise<string> {
    const user = await call('POST', '/users', administrator, {
      username,
      email: `${username}@example.com`,
      displayName: username,
      roles: [role],
    });
    expect(user.status).toBe(201);
    const client = await call('POST', '/clients', administrator, { displayName: `${username} CLI`, ownerUserId: user.body.id });
    expect(client.status).toBe(201);
    expect(client.body.state).toBe('active');
    const secret = await call('POST', `/clients/${client.body.clientId}/secrets`, administrator, {});
    expect(secret.status).toBe(201);
    secretsSeen.push(secret.body.secretText);
    const issued = await token(client.body.clientId, secret.body.secretText, 'api://gatehouse-admin/.default');
    expect(issued.status).toBe(200);
    return issued.body.access_token as string;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    const config = testConfig(database.url, { publicUrl, logLevel: 'info' });
    identity = await createIdentityApp({ config, logDestination: logs });
    await identity.listen(port, '127.0.0.1');
    admin = await createAdminApp({ config, logDestination: logs });
    await admin.listen(0, '127.0.0.1');
    adminUrl = await admin.getUrl();
    adminUrl = adminUrl.replace('[::1]', '127.0.0.1');

    const dataSource = identity.get(DataSource);
    provisioning = await createProvisioningContext(config, logs);
    const bootstrap = await provisioning.get(BootstrapService).bootstrap({ tenant: 'acme', rotateSecret: false });
    const rerun = await provisioning.get(BootstrapService).bootstrap({ tenant: 'acme', rotateSecret: false });
    expect(rerun).toMatchObject({ tenantId: bootstrap.tenantId, clientId: bootstrap.clientId, tenantCreated: false });
    expect(rerun.clientSecret).toBeUndefined();
    tenantId = bootstrap.tenantId;
    expect(bootstrap.clientSecret).toBeTruthy();
    secretsSeen.push(bootstrap.clientSecret!);
    expect(await dataSource.query('SELECT count(*)::int AS n FROM tenants')).toEqual([{ n: 1 }]);
    const issued = await token(bootstrap.clientId, bootstrap.clientSecret!, bootstrap.scope);
    expect(issued.status).toBe(200);
    administrator = issued.body.access_token;
    contactPerson = await operator('carla', 'ContactPerson');
    itDepartment = await operator('ivan', 'ITDepartment');
  }, 60_000);

  afterAll(async () => {
    await provisioning?.close();
    await identity?.close();
    await admin?.close();
    await database?.drop();
  });

  it('IT defines an API with two scopes', async () => {
    const api = await call('POST', '/apis', itDepartment, { identifier: 'api://orders', displayName: 'Orders' });
    expect(api.status).toBe(201);
    orders = api.body;
    for (const value of ['Orders.Read', 'Orders.Write']) {
      const scope = await call('POST', `/apis/${orders.id}/scopes`, itDepartment, { value, description: value });
      expect(scope.status).toBe(201);
    }
  });

  it('refuses a NUL character in a path or a body, which Postgres text cannot hold', async () => {
    const body = await call('POST', '/doc-sections', administrator, { slug: 'nul', title: 'NUL', body: 'a\u0000b' });
    expect(body.status).toBe(400);
    expect(body.body.code).toBe('invalid_characters');
    expect((await call('GET', '/doc-sections/x%00y', administrator)).status).toBe(400);
  });

  it('the contact person sets up a client that waits for scopes, and issues its secrets', async () => {
    const client = await call('POST', '/clients', contactPerson, {
      displayName: 'Orders sync',
      contactEmail: 'ops@example.com',
    });
    expect(client.status).toBe(201);
    expect(client.body.state).toBe('awaiting_scopes');
    ordersClient = client.body;
    const one = await call('POST', `/clients/${ordersClient.clientId}/secrets`, contactPerson, { displayName: 'one' });
    const two = await call('POST', `/clients/${ordersClient.clientId}/secrets`, contactPerson, { expiresInDays: 30 });
    expect([one.status, two.status]).toEqual([201, 201]);
    secretOne = one.body.secretText;
    secretTwo = two.body.secretText;
    secretsSeen.push(secretOne, secretTwo);
    expect(one.body.hint).toBe(secretOne.slice(4, 7)); // after the gte_ prefix
  });

  it('a client without scopes is not authorized yet', async () => {
    const denied = await token(ordersClient.clientId, secretOne, 'api://orders/.default');
    expect(denied.status).toBe(400);
    expect(denied.body.error).toBe('unauthorized_client');
  });

  it('roles are enforced: nobody does what their role does not allow', async () => {
    const scopes = { scopes: ['api://orders/Orders.Read'] };
    expect((await call('PUT', `/clients/${ordersClient.clientId}/scopes`, contactPerson, scopes)).status).toBe(403);
    expect((await call('POST', `/clients/${ordersClient.clientId}/secrets`, itDepartment, {})).status).toBe(403);
    const promote = await call('POST', '/users', contactPerson, {
      username: 'mallory',
      email: 'mallory@example.com',
      displayName: 'Mallory',
      roles: ['Administrator'],
    });
    expect(promote.status).toBe(403);
  });

  it('IT assigns a scope and the client becomes active', async () => {
    const assigned = await call('PUT', `/clients/${ordersClient.clientId}/scopes`, itDepartment, {
      scopes: ['api://orders/Orders.Read'],
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toEqual({ scopes: ['api://orders/Orders.Read'], state: 'active' });
  });

  it('issues tokens by form post and by Basic that jose verifies against the discovered JWKS', async () => {
    const discovery = (await (await fetch(`${publicUrl}/${tenantId}/v2.0/.well-known/openid-configuration`)).json()) as Json;
    expect(discovery.issuer).toBe(`${publicUrl}/${tenantId}/v2.0`);
    const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri as string));
    for (const basic of [false, true]) {
      const issued = await untilAccepted(() => token(ordersClient.clientId, secretOne, 'api://orders/.default', basic));
      expect(issued.status).toBe(200);
      expect(issued.body).toMatchObject({ token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599 });
      const header = decodeProtectedHeader(issued.body.access_token);
      expect(header).toMatchObject({ alg: 'RS256', typ: 'JWT' });
      expect(header.kid).toBeTruthy();
      const { payload } = await jwtVerify(issued.body.access_token, jwks, {
        issuer: discovery.issuer as string,
        audience: orders.appId as string,
        typ: 'JWT',
      });
      expect(payload).toMatchObject({
        tid: tenantId,
        client_id: ordersClient.clientId,
        azp: ordersClient.clientId,
        roles: ['Orders.Read'],
        scope: 'Orders.Read',
        idtyp: 'app',
        ver: '2.0',
      });
      expect(payload.exp! - payload.iat!).toBe(issued.body.expires_in);
    }
  });

  it('a revoked secret fails at once while the other still works', async () => {
    const secrets = await call('GET', `/clients/${ordersClient.clientId}/secrets`, contactPerson);
    expect(secrets.status).toBe(200);
    const list = (secrets.body.items ?? secrets.body) as Json[];
    expect(list).toHaveLength(2);
    const first = list.find((s) => s.hint === secretOne.slice(4, 7) && s.displayName === 'one')!;
    expect((await call('DELETE', `/clients/${ordersClient.clientId}/secrets/${first.keyId}`, contactPerson)).status).toBe(204);
    const revoked = await untilRefused(() => token(ordersClient.clientId, secretOne, 'api://orders/.default'));
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toBe('invalid_client');
    expect((await token(ordersClient.clientId, secretTwo, 'api://orders/.default')).status).toBe(200);
  });

  it("a disabled client is refused at once (Entra's 400 unauthorized_client 7000112)", async () => {
    expect((await call('POST', `/clients/${ordersClient.clientId}/disable`, contactPerson)).status).toBeLessThan(300);
    const refused = await untilRefused(() => token(ordersClient.clientId, secretTwo, 'api://orders/.default'));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('unauthorized_client');
    expect((await call('POST', `/clients/${ordersClient.clientId}/enable`, contactPerson)).status).toBeLessThan(300);
    expect((await untilAccepted(() => token(ordersClient.clientId, secretTwo, 'api://orders/.default'))).status).toBe(200);
  });

  it("a token of one tenant never reaches another tenant's data", async () => {
    const other = await provisioning.get(BootstrapService).bootstrap({ tenant: 'globex', rotateSecret: false });
    secretsSeen.push(other.clientSecret!);
    expect((await call('GET', `/clients/${other.clientId}`, administrator)).status).toBe(404);
    expect((await call('POST', `/clients/${other.clientId}/disable`, administrator)).status).toBe(404);
  });

  it('audits every write with the secret redacted', async () => {
    const events = await call('GET', '/audit-events?limit=200', administrator);
    expect(events.status).toBe(200);
    const actions = (events.body.items as Json[]).map((e) => e.action as string);
    expect(actions.length).toBeGreaterThanOrEqual(10);
    const text = JSON.stringify(events.body);
    for (const secret of secretsSeen) expect(text).not.toContain(secret);
  });

  it('a dump of the database holds no secret in plain text', () => {
    const dump = execFileSync('pg_dump', ['--data-only', database.url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(dump).toContain('api://orders');
    for (const secret of secretsSeen) expect(dump).not.toContain(secret);
  });

  it('no response carries a hash, a secret appears only where it was created, and no log holds one', () => {
    const all = responses.join('\n');
    expect(all).not.toMatch(/secret_?hash|password_?hash/i);
    for (const secret of secretsSeen) {
      expect(all.split(secret).length - 1).toBeLessThanOrEqual(1);
      expect(logs.text).not.toContain(secret);
    }
    expect(logs.lines.length).toBeGreaterThan(0);
  });
});
