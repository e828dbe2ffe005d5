import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * The rules beyond "has the permission": nobody acts on someone who holds more than they do, the
 * tenant keeps an Administrator, reserved names stay reserved, and query strings are parsed strictly.
 */
describe('admin API: guardrails', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let fixtures: AdminFixtures;
  let tenant: TenantFixture;
  let admin: OperatorFixture;
  let contact: OperatorFixture;
  let otherContact: OperatorFixture;
  let it_: OperatorFixture;

  function call(method: Method, path: string, token: string, body?: unknown) {
    const req = request(app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${token}`);
    return body === undefined ? req : req.send(body as object);
  }

  function expectProblem(response: request.Response, status: number, code: string): void {
    expect(response.status, response.text).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.code).toBe(code);
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url);
    app = await createAdminApp({ config, logDestination: new LogCapture() });
    fixtures = new AdminFixtures(app, config);
    tenant = await fixtures.tenant();
    admin = await fixtures.operator(tenant, ['Administrator']);
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    otherContact = await fixtures.operator(tenant, ['ContactPerson']);
    it_ = await fixtures.operator(tenant, ['ITDepartment']);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('a ContactPerson cannot change, disable or switch off someone who holds more', async () => {
    expectProblem(await call('patch', `/users/${admin.user.id}`, contact.token, { email: 'evil@example.com' }), 403, 'user_privileged');
    expectProblem(await call('post', `/users/${admin.user.id}/disable`, contact.token), 403, 'user_privileged');
    expectProblem(await call('post', `/users/${it_.user.id}/disable`, contact.token), 403, 'user_privileged');
    expectProblem(await call('post', `/clients/${admin.clientId}/disable`, contact.token), 403, 'owner_privileged');
    const unchanged = await call('get', `/users/${admin.user.id}`, contact.token);
    expect(unchanged.body).toMatchObject({ email: admin.user.email, status: 'active' });
    expect((await call('get', '/tenant', admin.token)).status).toBe(200);
  });

  it("a ContactPerson manages plain users, but neither peers (SECURITY 56) nor a peer's operator clients", async () => {
    const renamed = await call('patch', `/users/${otherContact.user.id}`, contact.token, { displayName: 'Renamed' });
    expectProblem(renamed, 403, 'user_privileged');
    const owned = await call('post', '/clients', contact.token, { displayName: 'peer tool', ownerUserId: otherContact.user.id });
    expectProblem(owned, 403, 'owner_requires_administrator');
    expectProblem(await call('post', `/clients/${otherContact.clientId}/secrets`, contact.token, {}), 403, 'owner_privileged');
    const plain = await call('post', '/users', contact.token, { username: 'plain', email: 'plain@example.com', displayName: 'P' });
    expect((await call('post', `/users/${plain.body.id}/disable`, contact.token)).body.status).toBe('disabled');
  });

  it('keeps at least one active Administrator, even under concurrent demotions', async () => {
    expectProblem(await call('patch', `/users/${admin.user.id}`, admin.token, { roles: ['ContactPerson'] }), 409, 'last_administrator');
    expectProblem(await call('post', `/users/${admin.user.id}/disable`, admin.token), 409, 'last_administrator');
    const second = await fixtures.operator(tenant, ['Administrator']);
    const results = await Promise.all([
      call('patch', `/users/${second.user.id}`, admin.token, { roles: ['Auditor'] }),
      call('patch', `/users/${admin.user.id}`, second.token, { roles: ['Auditor'] }),
    ]);
    // The loser is refused by the lock (409) or, when its request starts after the winner committed,
    // already by its own demotion (403): either way exactly one change lands.
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const remaining = await call('get', '/users?role=Administrator&status=active', contact.token);
    expect(remaining.body.items).toHaveLength(1);
  });

  it('reserves the .default scope value', async () => {
    const api = await call('post', '/apis', it_.token, { identifier: 'api://billing', displayName: 'Billing' });
    expect(api.status).toBe(201);
    for (const value of ['.default', '.DEFAULT']) {
      expectProblem(await call('post', `/apis/${api.body.id}/scopes`, it_.token, { value }), 400, 'api_scope_invalid');
    }
    expect((await call('post', `/apis/${api.body.id}/scopes`, it_.token, { value: 'Billing.Read' })).status).toBe(201);
  });

  it('parses query strings strictly and refuses control characters in names', async () => {
    for (const query of ['limit=1e2', 'limit=0x10', 'limit=%205', 'limit=true', 'since=1', 'since=yesterday', 'since=2026-13-45']) {
      const path = query.startsWith('since') ? `/audit-events?${query}` : `/users?${query}`;
      const token = query.startsWith('since') ? admin.token : contact.token;
      expectProblem(await call('get', path, token), 400, 'validation_failed');
    }
    expect((await call('get', '/users?limit=2', contact.token)).body.items).toHaveLength(2);
    expect((await call('get', '/audit-events?since=2020-01-01', admin.token)).status).toBe(200);
    expect((await call('get', '/audit-events?since=2020-01-01T00:00:00.000Z', admin.token)).status).toBe(200);
    const injected = await call('post', '/clients', contact.token, { displayName: 'ok\r\nBcc: evil@example.com' });
    expectProblem(injected, 400, 'validation_failed');
    expect(injected.body.errors).toEqual([{ field: 'displayName', message: expect.stringContaining('one line') }]);
    const secretName = await call('post', `/clients/${contact.clientId}/secrets`, contact.token, { displayName: 'a\u0000b' });
    expectProblem(secretName, 400, 'validation_failed');
  });
});
