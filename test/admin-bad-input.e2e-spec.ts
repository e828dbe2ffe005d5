import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminApi, expectProblem } from './support/admin-calls.js';
import type { OperatorFixture, TenantFixture } from './support/admin-fixtures.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Input the admin API must refuse, each with a problem body, never a 500: bodies refused before
 * validation (SECURITY.md 53), then fields, types, sizes and ids refused by it.
 */
describe('admin API: bad input', () => {
  const api = new AdminApi();
  const { calls, logs } = api;
  let app: INestApplication;
  let tenant: TenantFixture;
  let admin: OperatorFixture;
  let contact: OperatorFixture;
  let itDepartment: OperatorFixture;

  const post = (path: string, body: string | Buffer, type = 'application/json') =>
    request(app.getHttpServer())
      .post(`/admin/v1${path}`)
      .set('authorization', `Bearer ${admin.token}`)
      .set('content-type', type)
      .serialize((raw: string | Buffer) => raw as string) // the bytes as given, never re-encoded
      .send(body);

  const nested = (depth: number) => '{"displayName":"x","deep":'.concat('['.repeat(depth - 1), ']'.repeat(depth - 1), '}');

  beforeAll(async () => {
    const { fixtures } = await api.start();
    app = api.app;
    tenant = await fixtures.tenant();
    admin = await fixtures.operator(tenant, ['Administrator']);
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    itDepartment = await fixtures.operator(tenant, ['ITDepartment']);
  });

  afterAll(() => api.stop());

  it('JSON nested 3,000 deep (or 33) → 400 too_deep; 32 levels reach validation', async () => {
    for (const path of ['/clients', '/users', '/invitations', `/clients/${admin.clientId}/secrets`]) {
      expectProblem(await post(path, nested(3000)), 400, 'too_deep');
    }
    expectProblem(await post('/clients', nested(33)), 400, 'too_deep');
    const deepest = await post('/clients', nested(32));
    expectProblem(deepest, 400, 'validation_failed'); // `deep` is not a field of the body
    expect(deepest.body.errors).toEqual([{ field: 'deep', message: expect.any(String) }]);
    expect(logs.text).not.toMatch(/Maximum call stack/);
  });

  it('__proto__, constructor and prototype keys anywhere → 400 forbidden_key, nothing created', async () => {
    const bodies = [
      '{"displayName":"p1","__proto__":{"state":"active"}}',
      '{"displayName":"p2","contactEmail":"a@example.com","constructor":{"prototype":{"x":1}}}',
      '{"displayName":"p3","tags":[{"prototype":1}]}',
    ];
    for (const body of bodies) expectProblem(await post('/clients', body), 400, 'forbidden_key');
    const list = await request(app.getHttpServer()).get('/admin/v1/clients').set('authorization', `Bearer ${admin.token}`);
    expect(list.body.items.map((c: { displayName: string }) => c.displayName)).not.toEqual(expect.arrayContaining(['p1']));
  });

  it('a body that is not JSON → 415, whatever it holds; a 10 MB form is refused without being read', async () => {
    expectProblem(await post('/clients', '{"displayName":"x"}', 'text/plain'), 415, 'unsupported_media_type');
    expectProblem(await post('/clients', 'displayName=x', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    expectProblem(await post('/clients', `displayName=${'x'.repeat(10 * 1024 * 1024)}`, 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    expectProblem(await post('/clients', '{"displayName":"x"}', 'application/json; charset=iso-8859-1'), 415, 'unsupported_media_type');
    const unauthenticated = await request(app.getHttpServer()).post('/admin/v1/clients').set('content-type', 'text/plain').send('x');
    expect(unauthenticated.status).toBe(415);
  });

  it('over the size limit → 413, checked before parsing; invalid UTF-8 → 400', async () => {
    expectProblem(await post('/clients', JSON.stringify({ displayName: 'x'.repeat(100 * 1024) })), 413, 'payload_too_large');
    const invalid = Buffer.concat([Buffer.from('{"displayName":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    expectProblem(await post('/clients', invalid), 400, 'invalid_utf8');
    const valid = await post('/clients', Buffer.from('{"displayName":"Zürich ✓"}'));
    expect(valid.status).toBe(201);
    expect(valid.body.displayName).toBe('Zürich ✓');
  });

  it('still serves after all of it; bodiless POSTs and ordinary JSON work as before', async () => {
    const client = await post('/clients', '{"displayName":"after"}');
    expect(client.status).toBe(201);
    const disabled = await request(app.getHttpServer())
      .post(`/admin/v1/clients/${client.body.clientId}/disable`)
      .set('authorization', `Bearer ${admin.token}`);
    expect(disabled.status).toBe(200);
    expect(
      (await post(`/clients/${client.body.clientId}/enable`, '', 'text/plain')).status, // no body: the type does not matter
    ).toBe(200);
    expect(logs.text).not.toContain('unexpected error');
  });

  it('refuses unknown fields, wrong types, oversized strings, bad ids — never a 500', async () => {
    const unknown = await calls.call('post', '/clients', contact.token, { displayName: 'x', roles: ['Administrator'], secretHash: 'x', state: 'active' });
    expectProblem(unknown, 400, 'validation_failed');
    expect((unknown.body.errors as Json[]).map((e) => e.field).sort()).toEqual(['roles', 'secretHash', 'state']);
    const wrongTypes = await calls.call('post', '/users', admin.token, { username: 5, email: 'nope', displayName: ['x'], roles: 'Administrator' });
    expectProblem(wrongTypes, 400, 'validation_failed');
    const fields = new Set((wrongTypes.body.errors as Json[]).map((e) => e.field));
    expect([...fields].sort()).toEqual(['displayName', 'email', 'roles', 'username']);
    expectProblem(await calls.call('post', '/clients', contact.token, { displayName: 'x'.repeat(201) }), 400, 'validation_failed');
    for (const days of [0, 731, 1.5, '30']) {
      expectProblem(await calls.call('post', `/clients/${contact.clientId}/secrets`, contact.token, { expiresInDays: days }), 400);
    }
    for (const path of ['/users/not-a-uuid', '/clients/not-a-uuid', '/apis/not-a-uuid', `/users/${tenant.tenantId}`]) {
      expectProblem(await calls.call('get', path, admin.token), 404);
    }
    expectProblem(await calls.call('delete', `/clients/${contact.clientId}/secrets/zzz`, contact.token), 404);
    expectProblem(await calls.call('post', '/apis', itDepartment.token, { identifier: 'http://insecure', displayName: 'x' }), 400);
    expectProblem(await calls.call('post', '/apis', itDepartment.token, { identifier: 'api://ok' }), 400);
    expectProblem(await calls.call('get', '/users?limit=0', admin.token), 400);
    expectProblem(await calls.call('get', '/users?limit=abc', admin.token), 400);
    expectProblem(await calls.call('get', '/users?bogus=1', admin.token), 400);
    expectProblem(await calls.call('patch', '/tenant', admin.token, { accessTokenLifetimeSeconds: 10 }), 400);
    expectProblem(await calls.call('patch', '/tenant', admin.token, { accessTokenLifetimeSeconds: 4000 }), 400, 'invalid_lifetime');
  });

  it('answers malformed JSON, oversized bodies and unknown routes with problem+json', async () => {
    const malformed = await request(app.getHttpServer())
      .post('/admin/v1/clients')
      .set('authorization', `Bearer ${contact.token}`)
      .set('content-type', 'application/json')
      .send('{"displayName":');
    expectProblem(malformed, 400, 'malformed_json');
    const big = await request(app.getHttpServer())
      .post('/admin/v1/clients')
      .set('authorization', `Bearer ${contact.token}`)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ displayName: 'x'.repeat(70 * 1024) }));
    expectProblem(big, 413);
    expectProblem(await calls.call('get', '/nothing-here', admin.token), 404, 'not_found');
    expectProblem(await request(app.getHttpServer()).get('/nowhere'), 404);
  });

  it('every answer to a bad field said no-store and none showed a hash', () => {
    calls.expectNoneCacheable();
    calls.expectNoHash();
  });
});
