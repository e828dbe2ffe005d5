import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { ADMIN_CONTROLLERS } from '../apps/admin/src/admin.module.js';
import { REQUIRED_PERMISSION } from '../apps/admin/src/auth/require-permission.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

describe('admin API: authentication, authorization, tenancy, validation', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let fixtures: AdminFixtures;
  let tenantA: TenantFixture;
  let tenantB: TenantFixture;
  let adminA: OperatorFixture;
  let contactA: OperatorFixture;
  let itA: OperatorFixture;
  let auditorA: OperatorFixture;
  let adminB: OperatorFixture;
  const bodies: string[] = [];
  const cacheControls = new Map<string, string | undefined>();

  async function call(method: Method, path: string, token: string | undefined, body?: unknown) {
    let req = request(app.getHttpServer())[method](`/admin/v1${path}`);
    if (token !== undefined) req = req.set('authorization', `Bearer ${token}`);
    if (body !== undefined) req = req.send(body as object);
    const response = await req;
    bodies.push(response.text ?? '');
    cacheControls.set(`${method} ${path} → ${response.status}`, response.headers['cache-control']);
    return response;
  }

  function expectProblem(response: request.Response, status: number, code?: string): void {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
    if (code) expect(response.body.code).toBe(code);
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url);
    app = await createAdminApp({ config, logDestination: new LogCapture() });
    fixtures = new AdminFixtures(app, config);
    tenantA = await fixtures.tenant();
    tenantB = await fixtures.tenant();
    adminA = await fixtures.operator(tenantA, ['Administrator']);
    contactA = await fixtures.operator(tenantA, ['ContactPerson']);
    itA = await fixtures.operator(tenantA, ['ITDepartment']);
    auditorA = await fixtures.operator(tenantA, ['Auditor']);
    adminB = await fixtures.operator(tenantB, ['Administrator']);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

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
      const response = await call('get', '/clients', token);
      expectProblem(response, 401, 'unauthorized');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    }
    const basic = await request(app.getHttpServer()).get('/admin/v1/clients').set('authorization', 'Basic YTpi');
    expectProblem(basic, 401);
  });

  it('ContactPerson cannot assign scopes or set roles', async () => {
    const client = await call('post', '/clients', contactA.token, { displayName: 'c1' });
    const scopes = await call('put', `/clients/${client.body.clientId}/scopes`, contactA.token, { scopes: [] });
    expectProblem(scopes, 403, 'forbidden');
    expect(scopes.body.detail).toContain('Scopes.Assign');
    const user = await call('post', '/users', contactA.token, { username: 'x1', email: 'x1@example.com', displayName: 'X', roles: ['Administrator'] });
    expectProblem(user, 403);
    const plain = await call('post', '/users', contactA.token, { username: 'x1', email: 'x1@example.com', displayName: 'X' });
    expect(plain.status).toBe(201);
    const promote = await call('patch', `/users/${plain.body.id}`, contactA.token, { roles: ['Auditor'] });
    expectProblem(promote, 403);
    const self = await call('patch', `/users/${contactA.user.id}`, contactA.token, { roles: ['Administrator'] });
    expectProblem(self, 403);
  });

  it('ContactPerson cannot borrow an Administrator: no client owned by them, no secret for their client', async () => {
    const owned = await call('post', '/clients', contactA.token, { displayName: 'steal', ownerUserId: adminA.user.id });
    expectProblem(owned, 403, 'owner_requires_administrator');
    const secret = await call('post', `/clients/${adminA.clientId}/secrets`, contactA.token, {});
    expectProblem(secret, 403, 'owner_privileged');
  });

  it('ITDepartment cannot issue secrets; Auditor reads audit but cannot write', async () => {
    const client = await call('post', '/clients', contactA.token, { displayName: 'c2' });
    expectProblem(await call('post', `/clients/${client.body.clientId}/secrets`, itA.token, {}), 403, 'forbidden');
    expect((await call('get', '/audit-events', auditorA.token)).status).toBe(200);
    expectProblem(await call('get', '/audit-events', itA.token), 403);
    expectProblem(await call('post', '/clients', auditorA.token, { displayName: 'x' }), 403);
    expectProblem(await call('post', '/users', auditorA.token, { username: 'y', email: 'y@example.com', displayName: 'y' }), 403);
    expect((await call('get', '/users', auditorA.token)).status).toBe(200);
  });

  it('an Administrator creates users with roles (never with a generated password) and plain users with one shown once', async () => {
    const staff = { username: 'Carol', email: 'carol@example.com', displayName: 'Carol', roles: ['ContactPerson'] };
    expectProblem(await call('post', '/users', adminA.token, { ...staff, password: 'generate' }), 400, 'generated_password_for_staff');
    const created = await call('post', '/users', adminA.token, staff);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'Carol', roles: ['ContactPerson'], status: 'active', mustChangePassword: true });
    expect(created.body.initialPassword).toBeUndefined();
    const plain = await call('post', '/users', adminA.token, { username: 'frank', email: 'f@example.com', displayName: 'F', password: 'generate' });
    expect(plain.body.initialPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const fetched = await call('get', `/users/${plain.body.id}`, adminA.token);
    expect(fetched.body.initialPassword).toBeUndefined();
    const taken = await call('post', '/users', adminA.token, { username: 'carol', email: 'c@example.com', displayName: 'C' });
    expectProblem(taken, 409, 'username_taken');
    const link = await call('post', '/users', adminA.token, { username: 'dave', email: 'd@example.com', displayName: 'D', password: 'activation-link' });
    expect(link.body).toMatchObject({ mustChangePassword: true });
    expect(link.body.initialPassword).toBeUndefined();
    const byRole = await call('get', '/users?role=ContactPerson&status=active', adminA.token);
    expect((byRole.body.items as Json[]).map((u) => u.username).sort()).toEqual(['Carol', contactA.user.username].sort());
    const byName = await call('get', '/users?username=CAROL', adminA.token);
    expect(byName.body.items).toHaveLength(1);
    const updated = await call('patch', `/users/${created.body.id}`, adminA.token, { displayName: 'Carol C', roles: ['Auditor'] });
    expect(updated.body).toMatchObject({ displayName: 'Carol C', roles: ['Auditor'] });
  });

  it('a removed role or a disabled owner takes effect at once', async () => {
    const it2 = await fixtures.operator(tenantA, ['ITDepartment', 'Auditor']);
    expect((await call('get', '/audit-events', it2.token)).status).toBe(200);
    expect((await call('patch', `/users/${it2.user.id}`, adminA.token, { roles: ['ITDepartment'] })).status).toBe(200);
    expectProblem(await call('get', '/audit-events', it2.token), 403);
    expect((await call('get', '/apis', it2.token)).status).toBe(200);
    expect((await call('post', `/users/${it2.user.id}/disable`, adminA.token)).body.status).toBe('disabled');
    expectProblem(await call('get', '/apis', it2.token), 401);
    expect((await call('post', `/users/${it2.user.id}/enable`, adminA.token)).body.status).toBe('active');
    expect((await call('get', '/apis', it2.token)).status).toBe(200);
    expect((await call('post', `/clients/${it2.clientId}/disable`, adminA.token)).status).toBe(200);
    expectProblem(await call('get', '/apis', it2.token), 401);
  });

  it("tenant A's token cannot read or change tenant B's users, clients or apis (404)", async () => {
    const api = await call('post', '/apis', adminB.token, { identifier: 'https://b.example.com/api', displayName: 'B' });
    expect(api.status).toBe(201);
    const client = await call('post', '/clients', adminB.token, { displayName: 'b-client' });
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
    for (const [method, path, body] of paths) expectProblem(await call(method, path, adminA.token, body), 404);
    const ownedElsewhere = await call('post', '/clients', adminA.token, { displayName: 'x', ownerUserId: adminB.user.id });
    expect(ownedElsewhere.status).toBe(400);
    const lists = await call('get', '/clients?limit=200', adminA.token);
    expect(JSON.stringify(lists.body)).not.toContain(client.body.clientId);
    const tenant = await call('get', '/tenant', adminB.token);
    expect(tenant.body.id).toBe(tenantB.tenantId);
  });

  it('refuses unknown fields, wrong types, oversized strings, bad ids — never a 500', async () => {
    const unknown = await call('post', '/clients', contactA.token, { displayName: 'x', roles: ['Administrator'], secretHash: 'x', state: 'active' });
    expectProblem(unknown, 400, 'validation_failed');
    expect((unknown.body.errors as Json[]).map((e) => e.field).sort()).toEqual(['roles', 'secretHash', 'state']);
    const wrongTypes = await call('post', '/users', adminA.token, { username: 5, email: 'nope', displayName: ['x'], roles: 'Administrator' });
    expectProblem(wrongTypes, 400, 'validation_failed');
    const fields = new Set((wrongTypes.body.errors as Json[]).map((e) => e.field));
    expect([...fields].sort()).toEqual(['displayName', 'email', 'roles', 'username']);
    expectProblem(await call('post', '/clients', contactA.token, { displayName: 'x'.repeat(201) }), 400, 'validation_failed');
    for (const days of [0, 731, 1.5, '30']) {
      expectProblem(await call('post', `/clients/${contactA.clientId}/secrets`, contactA.token, { expiresInDays: days }), 400);
    }
    for (const path of ['/users/not-a-uuid', '/clients/not-a-uuid', '/apis/not-a-uuid', `/users/${tenantA.tenantId}`]) {
      expectProblem(await call('get', path, adminA.token), 404);
    }
    expectProblem(await call('delete', `/clients/${contactA.clientId}/secrets/zzz`, contactA.token), 404);
    expectProblem(await call('post', '/apis', itA.token, { identifier: 'http://insecure', displayName: 'x' }), 400);
    expectProblem(await call('post', '/apis', itA.token, { identifier: 'api://ok' }), 400);
    expectProblem(await call('get', '/users?limit=0', adminA.token), 400);
    expectProblem(await call('get', '/users?limit=abc', adminA.token), 400);
    expectProblem(await call('get', '/users?bogus=1', adminA.token), 400);
    expectProblem(await call('patch', '/tenant', adminA.token, { accessTokenLifetimeSeconds: 10 }), 400);
    expectProblem(await call('patch', '/tenant', adminA.token, { accessTokenLifetimeSeconds: 4000 }), 400, 'invalid_lifetime');
  });

  it('answers malformed JSON, oversized bodies and unknown routes with problem+json', async () => {
    const malformed = await request(app.getHttpServer())
      .post('/admin/v1/clients')
      .set('authorization', `Bearer ${contactA.token}`)
      .set('content-type', 'application/json')
      .send('{"displayName":');
    expectProblem(malformed, 400, 'malformed_json');
    const big = await request(app.getHttpServer())
      .post('/admin/v1/clients')
      .set('authorization', `Bearer ${contactA.token}`)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ displayName: 'x'.repeat(70 * 1024) }));
    expectProblem(big, 413);
    expectProblem(await call('get', '/nothing-here', adminA.token), 404, 'not_found');
    expectProblem(await request(app.getHttpServer()).get('/nowhere'), 404);
  });

  it('Tenant.Manage changes settings (audited); others cannot', async () => {
    expectProblem(await call('patch', '/tenant', contactA.token, { accessTokenLifetimeSeconds: 600 }), 403);
    const changed = await call('patch', '/tenant', adminA.token, { accessTokenLifetimeSeconds: 600, extAccessTokenLifetimeSeconds: 900 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ accessTokenLifetimeSeconds: 600, extAccessTokenLifetimeSeconds: 900 });
    const read = await call('get', '/tenant', itA.token);
    expect(read.body.accessTokenLifetimeSeconds).toBe(600);
    const audit = await call('get', '/audit-events?action=tenant.settings.updated', auditorA.token);
    expect(audit.body.items).toHaveLength(1);
  });

  it('publishes the OpenAPI document with bearer auth', async () => {
    const doc = await request(app.getHttpServer()).get('/admin/openapi.json').expect(200);
    expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.body.paths)).toContain('/admin/v1/clients/{clientId}/secrets');
    expect(doc.body.components.schemas.IssuedSecretResponse.required).toContain('secretText');
    expect(JSON.stringify(doc.body.components.schemas.SecretResponse)).not.toContain('secretText');
    await request(app.getHttpServer()).get('/admin/docs/').expect(200);
  });

  it('serves an OpenAPI document that Redocly lints clean with the repository’s rules', async () => {
    const doc = await request(app.getHttpServer()).get('/admin/openapi.json').expect(200);
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-openapi-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), doc.text);
      const root = join(import.meta.dirname, '..');
      const lint = spawnSync(join(root, 'node_modules/.bin/redocly'), ['lint', '--config', join(root, 'redocly.yaml'), join(dir, 'openapi.json')], {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      expect(lint.status, `${lint.stdout}\n${lint.stderr}`.slice(-3000)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const operations = Object.values(doc.body.paths as Record<string, Record<string, Json>>).flatMap((item) => Object.values(item));
    expect(operations.length).toBeGreaterThanOrEqual(30);
    for (const operation of operations) expect(operation.summary, operation.operationId).toEqual(expect.any(String));
  }, 60_000);

  it('survives a small fuzz over every documented operation: no 5xx, always problem+json on errors', async () => {
    const doc = await request(app.getHttpServer()).get('/admin/openapi.json').expect(200);
    const payloads: unknown[] = [undefined, [], { zzz: 1 }, { displayName: { $ne: 1 }, scopes: 'x', value: null }, { displayName: 'ok', identifier: 'api://\r\nx' }];
    let calls = 0;
    for (const [template, operations] of Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(operations) as Method[]) {
        for (const id of ['00000000-0000-4000-8000-000000000000', 'x%00y', adminB.user.id]) {
          const path = template.replace('/admin/v1', '').replace(/\{[^}]+\}/g, id);
          for (const body of method === 'get' || method === 'delete' ? [undefined] : payloads) {
            const response = await call(method, path, adminA.token, body);
            calls++;
            expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
            if (response.status >= 400) expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(100);
  });

  it('audit rows never hold the initial password', async () => {
    const created = await call('post', '/users', adminA.token, { username: 'erin', email: 'e@example.com', displayName: 'E', password: 'generate' });
    expect(created.body.initialPassword).toEqual(expect.any(String));
    const audit = await call('get', `/audit-events?target=${created.body.id}`, auditorA.token);
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

  it('no answer may be cached: every response of the admin API says no-store (secrets, passwords, problems alike)', async () => {
    const direct = [
      await request(app.getHttpServer()).get('/admin/v1/clients'),
      await request(app.getHttpServer()).post('/admin/v1/clients').set('content-type', 'application/json').send('{'),
      await request(app.getHttpServer()).get('/admin/openapi.json'),
    ];
    for (const response of direct) cacheControls.set(`direct ${response.status}`, response.headers['cache-control']);
    expect(cacheControls.size).toBeGreaterThan(100);
    const cacheable = [...cacheControls].filter(([, value]) => value !== 'no-store');
    expect(cacheable).toEqual([]);
  });

  it('never returned a hash', () => {
    for (const body of bodies) expect(body).not.toMatch(/"(secret_hash|secretHash|passwordHash|password_hash)"\s*:/);
  });
});
