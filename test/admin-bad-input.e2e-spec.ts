import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture } from './support/admin-fixtures.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

/** Bodies the admin API must refuse before validation, each with a problem body, never a 500 (SECURITY.md 53). */
describe('admin API: bad bodies', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let admin: OperatorFixture;
  const logs = new LogCapture();

  const post = (path: string, body: string | Buffer, type = 'application/json') =>
    request(app.getHttpServer())
      .post(`/admin/v1${path}`)
      .set('authorization', `Bearer ${admin.token}`)
      .set('content-type', type)
      .serialize((raw: string | Buffer) => raw as string) // the bytes as given, never re-encoded
      .send(body);

  function expectProblem(response: request.Response, status: number, code: string): void {
    expect(response.status, response.text.slice(0, 300)).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status, code, detail: expect.any(String) });
  }

  const nested = (depth: number) => '{"displayName":"x","deep":'.concat('['.repeat(depth - 1), ']'.repeat(depth - 1), '}');

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url);
    app = await createAdminApp({ config, logDestination: logs });
    const fixtures = new AdminFixtures(app, config);
    admin = await fixtures.operator(await fixtures.tenant(), ['Administrator']);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

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
});
