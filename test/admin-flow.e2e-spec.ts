import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const HASH_KEYS = /"(secret_hash|secretHash|passwordHash|password_hash)"\s*:/;

describe('admin API: provisioning flow, secrets and audit', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let fixtures: AdminFixtures;
  let tenant: TenantFixture;
  let it_: OperatorFixture;
  let contact: OperatorFixture;
  let auditor: OperatorFixture;
  const logs = new LogCapture();
  const bodies: string[] = [];
  const secrets: string[] = [];
  let orders: Json;
  let client: Json;
  const keyIds: string[] = [];

  async function call(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, token: string, body?: unknown) {
    let req = request(app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${token}`);
    if (body !== undefined) req = req.send(body as object);
    const response = await req;
    bodies.push(response.text ?? '');
    return response;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, { logLevel: 'info' });
    app = await createAdminApp({ config, logDestination: logs });
    fixtures = new AdminFixtures(app, config);
    tenant = await fixtures.tenant();
    it_ = await fixtures.operator(tenant, ['ITDepartment']);
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    auditor = await fixtures.operator(tenant, ['Auditor']);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('IT creates api://orders with two scopes', async () => {
    const created = await call('post', '/apis', it_.token, { identifier: 'api://orders', displayName: 'Orders' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ identifier: 'api://orders', displayName: 'Orders', scopes: [] });
    expect(created.body.appId).toMatch(/^[0-9a-f-]{36}$/);
    orders = created.body;
    for (const value of ['Orders.Read', 'Orders.Write']) {
      const scope = await call('post', `/apis/${orders.id}/scopes`, it_.token, { value, description: value });
      expect(scope.status).toBe(201);
    }
    const again = await call('post', `/apis/${orders.id}/scopes`, it_.token, { value: 'Orders.Read', description: 'x' });
    expect(again.status).toBe(409);
    const duplicate = await call('post', '/apis', it_.token, { identifier: 'api://orders', displayName: 'Again' });
    expect(duplicate.status).toBe(409);
    const reserved = await call('post', '/apis', it_.token, { identifier: 'api://gatehouse-admin', displayName: 'Mine' });
    expect(reserved.status).toBe(409);
    const fetched = await call('get', `/apis/${orders.id}`, contact.token);
    expect(fetched.status).toBe(200);
    expect(fetched.body.scopes.map((s: Json) => s.value)).toEqual(['Orders.Read', 'Orders.Write']);
  });

  it('the built-in admin API cannot be changed', async () => {
    const scope = await call('post', `/apis/${tenant.adminApi.id}/scopes`, it_.token, { value: 'Mine', description: '' });
    expect(scope.status).toBe(409);
    expect(scope.body.code).toBe('api_built_in_immutable');
  });

  it('the contact person creates a client awaiting scopes and issues two secrets', async () => {
    const created = await call('post', '/clients', contact.token, { displayName: 'Orders sync', contactEmail: 'ops@example.com' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ displayName: 'Orders sync', state: 'awaiting_scopes', ownerUserId: null, scopes: [] });
    client = created.body;
    for (const displayName of ['one', 'two']) {
      const secret = await call('post', `/clients/${client.clientId}/secrets`, contact.token, { displayName, expiresInDays: 30 });
      expect(secret.status).toBe(201);
      expect(secret.body.secretText).toMatch(/^gte_[0-9A-Za-z]{49}$/);
      expect(secret.body.hint).toBe(secret.body.secretText.slice(4, 7));
      expect(Date.parse(secret.body.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
      secrets.push(secret.body.secretText);
      keyIds.push(secret.body.keyId);
    }
  });

  it('IT assigns Orders.Read: the client becomes active; unknown and admin scopes are refused', async () => {
    const unknown = await call('put', `/clients/${client.clientId}/scopes`, it_.token, {
      scopes: ['api://orders/Orders.Read', 'api://orders/Nope', 'api://missing/X'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_scopes');
    expect(JSON.stringify(unknown.body.errors)).toContain('api://orders/Nope');
    expect(JSON.stringify(unknown.body.errors)).toContain('api://missing/X');
    const admin = await call('put', `/clients/${client.clientId}/scopes`, it_.token, { scopes: ['api://gatehouse-admin/Tenant.Manage'] });
    expect(admin.status).toBe(400);
    expect(admin.body.code).toBe('admin_scopes_not_assignable');
    const byAppId = await call('put', `/clients/${client.clientId}/scopes`, it_.token, { scopes: [`${orders.appId}/Orders.Read`] });
    expect(byAppId.status).toBe(200);
    expect(byAppId.body).toEqual({ scopes: ['api://orders/Orders.Read'], state: 'active' });
    const fetched = await call('get', `/clients/${client.clientId}`, it_.token);
    expect(fetched.body).toMatchObject({ state: 'active', scopes: ['api://orders/Orders.Read'] });
  });

  it('lists secrets without values and revokes one', async () => {
    const list = await call('get', `/clients/${client.clientId}/secrets`, it_.token);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    for (const entry of list.body as Json[]) {
      expect(Object.keys(entry).sort()).toEqual(['createdAt', 'disabledAt', 'displayName', 'expiresAt', 'hint', 'keyId', 'lastUsedAt', 'lastUsedFrom', 'revokedAt']);
    }
    for (const secret of secrets) expect(list.text).not.toContain(secret);
    const revoked = await call('delete', `/clients/${client.clientId}/secrets/${keyIds[0]}`, contact.token);
    expect(revoked.status).toBe(204);
    const after = await call('get', `/clients/${client.clientId}/secrets`, it_.token);
    expect(after.body.find((s: Json) => s.keyId === keyIds[0]).revokedAt).not.toBeNull();
    expect(after.body.find((s: Json) => s.keyId === keyIds[1]).revokedAt).toBeNull();
    const missing = await call('delete', `/clients/${client.clientId}/secrets/${client.clientId}`, contact.token);
    expect(missing.status).toBe(404);
  });

  it('disables and enables a client (back to active, it has grants)', async () => {
    const disabled = await call('post', `/clients/${client.clientId}/disable`, contact.token);
    expect(disabled.status).toBe(200);
    expect(disabled.body.state).toBe('disabled');
    const enabled = await call('post', `/clients/${client.clientId}/enable`, contact.token);
    expect(enabled.body.state).toBe('active');
  });

  it('pages through clients with a cursor and filters them', async () => {
    const first = await call('get', '/clients?limit=2', contact.token);
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await call('get', `/clients?limit=2&cursor=${first.body.nextCursor}`, contact.token);
    const ids = [...first.body.items, ...second.body.items].map((c: Json) => c.clientId);
    expect(new Set(ids).size).toBe(4);
    expect(second.body.nextCursor).toBeNull();
    const awaiting = await call('get', '/clients?state=active', contact.token);
    expect(awaiting.body.items.length).toBe(4);
    const owned = await call('get', `/clients?ownerUserId=${it_.user.id}`, contact.token);
    expect(owned.body.items.map((c: Json) => c.clientId)).toEqual([it_.clientId]);
    const bad = await call('get', '/clients?cursor=garbage', contact.token);
    expect(bad.status).toBe(400);
  });

  it('the audit log records each write with secrets redacted, and filters work', async () => {
    const all = await call('get', '/audit-events?limit=200', auditor.token);
    expect(all.status).toBe(200);
    const actions = (all.body.items as Json[]).map((e) => e.action);
    for (const action of ['api.created', 'api.scope.created', 'client.created', 'client.secret.created', 'client.scopes.set', 'client.secret.revoked']) {
      expect(actions).toContain(action);
    }
    for (const secret of secrets) expect(all.text).not.toContain(secret);
    const byAction = await call('get', '/audit-events?action=client.secret.created', auditor.token);
    expect(byAction.body.items).toHaveLength(2);
    expect(byAction.body.items[0].actor).toEqual({
      type: 'user',
      userId: contact.user.id,
      clientId: contact.clientId,
      name: contact.user.displayName,
      username: contact.user.username,
    });
    const byPrefix = await call('get', '/audit-events?action=client.secret.*', auditor.token);
    expect(byPrefix.body.items).toHaveLength(3);
    const byTarget = await call('get', `/audit-events?target=${client.clientId}&actor=${it_.user.id}`, auditor.token);
    expect((byTarget.body.items as Json[]).map((e) => e.action)).toEqual(['client.scopes.set']);
    const future = await call('get', `/audit-events?since=${new Date(Date.now() + 60_000).toISOString()}`, auditor.token);
    expect(future.body.items).toEqual([]);
    const page = await call('get', '/audit-events?limit=1', auditor.token);
    const next = await call('get', `/audit-events?limit=1&cursor=${page.body.nextCursor}`, auditor.token);
    expect(next.body.items[0].id).not.toBe(page.body.items[0].id);
    const badSince = await call('get', '/audit-events?since=yesterday', auditor.token);
    expect(badSince.status).toBe(400);
  });

  it('no response ever carried a hash; secrets appeared once; logs hold no secret', async () => {
    for (const body of bodies) expect(body).not.toMatch(HASH_KEYS);
    for (const secret of secrets) expect(bodies.filter((b) => b.includes(secret))).toHaveLength(1);
    expect(logs.lines.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(logs.text).not.toContain(secret);
    expect(logs.text).not.toContain(contact.token);
  });
});
