import type { INestApplication } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CONTROLLERS } from '../apps/admin/src/admin.module.js';
import { REQUIRED_PERMISSION } from '../apps/admin/src/auth/require-permission.js';
import { AdminApi, type Method, expectProblem } from './support/admin-calls.js';
import type { AdminFixtures, OperatorFixture, TenantFixture } from './support/admin-fixtures.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Who may call the admin API and what each role may do there, within its own tenant only. */
describe('admin API: authentication, authorization, tenancy', () => {
  const api = new AdminApi();
  const calls = api.calls;
  let app: INestApplication;
  let fixtures: AdminFixtures;
  let tenantA: TenantFixture;
  let tenantB: TenantFixture;
  let adminA: OperatorFixture;
  let contactA: OperatorFixture;
  let itA: OperatorFixture;
  let auditorA: OperatorFixture;
  let adminB: OperatorFixture;

  beforeAll(async () => {
    ({ app, fixtures } = await api.start());
    tenantA = await fixtures.tenant();
    tenantB = await fixtures.tenant();
    adminA = await fixtures.operator(tenantA, ['Administrator']);
    contactA = await fixtures.operator(tenantA, ['ContactPerson']);
    itA = await fixtures.operator(tenantA, ['ITDepartment']);
    auditorA = await fixtures.operator(tenantA, ['Auditor']);
    adminB = await fixtures.operator(tenantB, ['Administrator']);
  });

  afterAll(() => api.stop());

  it('every admin route declares a permission', () => {
    let routes = 0;
    for (const controller of ADMIN_CONTROLLERS) {
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as unknown as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        routes++;
        expect(Reflect.getMetadata(REQUIRED_PERMISSION, handler), `${controller.name}.${name}`).toEqual(expect.any(String));
      }
    }
    expect(routes).toBeGreaterThanOrEqual(20);
  });

  it('missing, garbage, expired, wrong-audience or foreign-signed tokens → 401 with WWW-Authenticate', async () => {
    const expired = await fixtures.token(tenantA, adminA, { issuedSecondsAgo: 7200, expiresInSeconds: 3600 });
    const wrongAudience = await fixtures.token(tenantA, adminA, { audience: '00000000-0000-4000-8000-000000000000' });
    const [header, payload] = adminA.token.split('.');
    const tampered = `${header}.${payload}.${adminB.token.split('.')[2]}`;
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const unknownTenant = `${header}.${part({ ...claims, tid: '00000000-0000-4000-8000-000000000000' })}.${adminA.token.split('.')[2]}`;
    const otherClient = `${header}.${part({ ...claims, client_id: adminB.clientId })}.${adminA.token.split('.')[2]}`;
    for (const token of [undefined, 'garbage', 'a.b.c', expired, wrongAudience, tampered, unknownTenant, otherClient]) {
      const response = await calls.call('get', '/clients', token);
      expectProblem(response, 401, 'unauthorized');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    }
    const basic = await request(app.getHttpServer()).get('/admin/v1/clients').set('authorization', 'Basic YTpi');
    expectProblem(basic, 401);
  });

  it('ContactPerson cannot assign scopes or set roles', async () => {
    const client = await calls.call('post', '/clients', contactA.token, { displayName: 'c1' });
    const scopes = await calls.call('put', `/clients/${client.body.clientId}/scopes`, contactA.token, { scopes: [] });
    expectProblem(scopes, 403, 'forbidden');
    expect(scopes.body.detail).toContain('Scopes.Assign');
    const user = await calls.call('post', '/users', contactA.token, { username: 'x1', email: 'x1@example.com', displayName: 'X', roles: ['Administrator'] });
    expectProblem(user, 403);
    const plain = await calls.call('post', '/users', contactA.token, { username: 'x1', email: 'x1@example.com', displayName: 'X' });
    expect(plain.status).toBe(201);
    const promote = await calls.call('patch', `/users/${plain.body.id}`, contactA.token, { roles: ['Auditor'] });
    expectProblem(promote, 403);
    const self = await calls.call('patch', `/users/${contactA.user.id}`, contactA.token, { roles: ['Administrator'] });
    expectProblem(self, 403);
  });

  it('ContactPerson cannot borrow an Administrator: no client owned by them, no secret for their client', async () => {
    const owned = await calls.call('post', '/clients', contactA.token, { displayName: 'steal', ownerUserId: adminA.user.id });
    expectProblem(owned, 403, 'owner_requires_administrator');
    const secret = await calls.call('post', `/clients/${adminA.clientId}/secrets`, contactA.token, {});
    expectProblem(secret, 403, 'owner_privileged');
  });

  it('ITDepartment cannot issue secrets; Auditor reads audit but cannot write', async () => {
    const client = await calls.call('post', '/clients', contactA.token, { displayName: 'c2' });
    expectProblem(await calls.call('post', `/clients/${client.body.clientId}/secrets`, itA.token, {}), 403, 'forbidden');
    expect((await calls.call('get', '/audit-events', auditorA.token)).status).toBe(200);
    expectProblem(await calls.call('get', '/audit-events', itA.token), 403);
    expectProblem(await calls.call('post', '/clients', auditorA.token, { displayName: 'x' }), 403);
    expectProblem(await calls.call('post', '/users', auditorA.token, { username: 'y', email: 'y@example.com', displayName: 'y' }), 403);
    expect((await calls.call('get', '/users', auditorA.token)).status).toBe(200);
  });

  it('an Administrator creates users with roles (never with a generated password) and plain users with one shown once', async () => {
    const staff = { username: 'Carol', email: 'carol@example.com', displayName: 'Carol', roles: ['ContactPerson'] };
    expectProblem(await calls.call('post', '/users', adminA.token, { ...staff, password: 'generate' }), 400, 'generated_password_for_staff');
    const created = await calls.call('post', '/users', adminA.token, staff);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'Carol', roles: ['ContactPerson'], status: 'active', mustChangePassword: true });
    expect(created.body.initialPassword).toBeUndefined();
    const plain = await calls.call('post', '/users', adminA.token, { username: 'frank', email: 'f@example.com', displayName: 'F', password: 'generate' });
    expect(plain.body.initialPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const fetched = await calls.call('get', `/users/${plain.body.id}`, adminA.token);
    expect(fetched.body.initialPassword).toBeUndefined();
    const taken = await calls.call('post', '/users', adminA.token, { username: 'carol', email: 'c@example.com', displayName: 'C' });
    expectProblem(taken, 409, 'username_taken');
    const link = await calls.call('post', '/users', adminA.token, { username: 'dave', email: 'd@example.com', displayName: 'D', password: 'activation-link' });
    expect(link.body).toMatchObject({ mustChangePassword: true });
    expect(link.body.initialPassword).toBeUndefined();
    const byRole = await calls.call('get', '/users?role=ContactPerson&status=active', adminA.token);
    expect((byRole.body.items as Json[]).map((u) => u.username).sort()).toEqual(['Carol', contactA.user.username].sort());
    const byName = await calls.call('get', '/users?username=CAROL', adminA.token);
    expect(byName.body.items).toHaveLength(1);
    const updated = await calls.call('patch', `/users/${created.body.id}`, adminA.token, { displayName: 'Carol C', roles: ['Auditor'] });
    expect(updated.body).toMatchObject({ displayName: 'Carol C', roles: ['Auditor'] });
  });

  it('a removed role or a disabled owner takes effect at once', async () => {
    const it2 = await fixtures.operator(tenantA, ['ITDepartment', 'Auditor']);
    expect((await calls.call('get', '/audit-events', it2.token)).status).toBe(200);
    expect((await calls.call('patch', `/users/${it2.user.id}`, adminA.token, { roles: ['ITDepartment'] })).status).toBe(200);
    expectProblem(await calls.call('get', '/audit-events', it2.token), 403);
    expect((await calls.call('get', '/apis', it2.token)).status).toBe(200);
    expect((await calls.call('post', `/users/${it2.user.id}/disable`, adminA.token)).body.status).toBe('disabled');
    expectProblem(await calls.call('get', '/apis', it2.token), 401);
    expect((await calls.call('post', `/users/${it2.user.id}/enable`, adminA.token)).body.status).toBe('active');
    expect((await calls.call('get', '/apis', it2.token)).status).toBe(200);
    expect((await calls.call('post', `/clients/${it2.clientId}/disable`, adminA.token)).status).toBe(200);
    expectProblem(await calls.call('get', '/apis', it2.token), 401);
  });

  it("tenant A's token cannot read or change tenant B's users, clients or apis (404)", async () => {
    const api = await calls.call('post', '/apis', adminB.token, { identifier: 'https://b.example.com/api', displayName: 'B' });
    expect(api.status).toBe(201);
    const client = await calls.call('post', '/clients', adminB.token, { displayName: 'b-client' });
    const paths: Array<[Method, string, unknown?]> = [
      ['get', `/users/${adminB.user.id}`],
      ['patch', `/users/${adminB.user.id}`, { displayName: 'pwned' }],
      ['post', `/users/${adminB.user.id}/disable`],
      ['get', `/clients/${client.body.clientId}`],
      ['post', `/clients/${client.body.clientId}/disable`],
      ['post', `/clients/${client.body.clientId}/secrets`, {}],
      ['get', `/clients/${client.body.clientId}/secrets`],
      ['put', `/clients/${client.body.clientId}/scopes`, { scopes: [] }],
      ['get', `/apis/${api.body.id}`],
      ['post', `/apis/${api.body.id}/scopes`, { value: 'X', description: '' }],
    ];
    for (const [method, path, body] of paths) expectProblem(await calls.call(method, path, adminA.token, body), 404);
    const ownedElsewhere = await calls.call('post', '/clients', adminA.token, { displayName: 'x', ownerUserId: adminB.user.id });
    expect(ownedElsewhere.status).toBe(400);
    const lists = await calls.call('get', '/clients?limit=200', adminA.token);
    expect(JSON.stringify(lists.body)).not.toContain(client.body.clientId);
    const tenant = await calls.call('get', '/tenant', adminB.token);
    expect(tenant.body.id).toBe(tenantB.tenantId);
  });

  it('Tenant.Manage changes settings (audited); others cannot', async () => {
    expectProblem(await calls.call('patch', '/tenant', contactA.token, { accessTokenLifetimeSeconds: 600 }), 403);
    const changed = await calls.call('patch', '/tenant', adminA.token, { accessTokenLifetimeSeconds: 600, extAccessTokenLifetimeSeconds: 900 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ accessTokenLifetimeSeconds: 600, extAccessTokenLifetimeSeconds: 900 });
    const read = await calls.call('get', '/tenant', itA.token);
    expect(read.body.accessTokenLifetimeSeconds).toBe(600);
    const audit = await calls.call('get', '/audit-events?action=tenant.settings.updated', auditorA.token);
    expect(audit.body.items).toHaveLength(1);
  });

  it('audit rows never hold the initial password', async () => {
    const created = await calls.call('post', '/users', adminA.token, { username: 'erin', email: 'e@example.com', displayName: 'E', password: 'generate' });
    expect(created.body.initialPassword).toEqual(expect.any(String));
    const audit = await calls.call('get', `/audit-events?target=${created.body.id}`, auditorA.token);
    expect(audit.body.items.map((e: Json) => e.action)).toEqual(['user.created']);
    expect(audit.text).not.toContain(created.body.initialPassword);
    expect(audit.body.items[0].actor).toEqual({
      type: 'user',
      userId: adminA.user.id,
      clientId: adminA.clientId,
      name: adminA.user.displayName,
      username: adminA.user.username,
    });
  });

  it('every answer said no-store and none showed a hash', () => {
    calls.expectNoneCacheable();
    calls.expectNoHash();
  });
});
