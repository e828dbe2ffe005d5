import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_EVENTS } from '@gatehouse/events';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { RECEIVER_CA, WebhookReceiver } from './support/webhook-receiver.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('webhooks REST API (DESIGN §13)', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let tenant: TenantFixture;
  let other: TenantFixture;
  let admin: OperatorFixture;
  let contact: OperatorFixture;
  let outsider: OperatorFixture;
  const receiver = new WebhookReceiver();

  const call = (who: OperatorFixture, method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
    const req = request(app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${who.token}`);
    return body === undefined ? req : req.send(body);
  };

  beforeAll(async () => {
    const url = await receiver.start();
    database = await createTestDatabase();
    const config = testConfig(database.url, { webhookPrivateTargets: [url], outboundCa: RECEIVER_CA });
    app = await createAdminApp({ config });
    const fixtures = new AdminFixtures(app, config);
    tenant = await fixtures.tenant();
    other = await fixtures.tenant();
    admin = await fixtures.operator(tenant, ['Administrator']);
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    outsider = await fixtures.operator(other, ['Administrator']);
  });

  afterAll(async () => {
    await app?.close();
    await receiver.stop();
    await database?.drop();
  });

  it('creates a webhook and shows its whsec_ secret once, stored sealed and audited without it', async () => {
    const created = await call(admin, 'post', '/webhooks', { url: receiver.url, events: ['client.secret.*', 'client.credential.expiring'], description: 'Vault sync' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, events: ['client.secret.*', 'client.credential.expiring'], state: 'active', description: 'Vault sync' });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await call(admin, 'get', `/webhooks/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(JSON.stringify((await call(admin, 'get', '/webhooks')).body)).not.toContain(created.body.secret);
    const [row] = await app.get(DataSource).query(`SELECT secret_sealed FROM webhook_subscriptions WHERE id = $1`, [created.body.id]);
    expect(row.secret_sealed.toString('latin1')).not.toContain(created.body.secret.slice(6, 20));
    const audit = await call(admin, 'get', `/audit-events?action=webhook.created&target=${created.body.id}`);
    expect(audit.body.items).toHaveLength(1);
    expect(JSON.stringify(audit.body.items[0])).not.toContain(created.body.secret);
  });

  it('refuses URLs that break an outbound rule, naming the rule', async () => {
    const cases: Array<[string, RegExp]> = [
      ['http://hooks.example.com/x', /must start with https/],
      ['https://user:pw@hooks.example.com/x', /user name or password/],
      [`https://hooks.example.com/${'a'.repeat(2_000)}`, /longer than 2,000 characters/],
      ['https://127.0.0.2:8443/hooks', /private, loopback or link-local/],
      ['https://169.254.169.254/latest', /private, loopback or link-local/],
    ];
    for (const [url, rule] of cases) {
      const answer = await call(admin, 'post', '/webhooks', { url, events: ['user.created'] });
      expect(answer.status, url).toBe(400);
      expect(answer.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(answer.body.errors[0].field, url).toBe('url');
      expect(answer.body.errors[0].message, url).toMatch(rule);
    }
  });

  it('refuses an event filter naming no known event, with the list of events', async () => {
    const answer = await call(admin, 'post', '/webhooks', { url: receiver.url, events: ['client.secret.*', 'client.secrets.*', 'nope'] });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('webhook_events_unknown');
    expect(answer.body.errors.map((e: Json) => e.message)).toEqual(['no known event matches "client.secrets.*"', 'no known event matches "nope"']);
    expect(answer.body.knownEvents).toEqual([...KNOWN_EVENTS]);
    expect(answer.body.knownEvents).toContain('client.credential.stale');
    expect((await call(admin, 'post', '/webhooks', { url: receiver.url, events: [] })).status).toBe(400);
    expect((await call(admin, 'post', '/webhooks', { url: receiver.url, events: ['*'], extra: 1 })).status).toBe(400);
  });

  it('updates, disables and enables, rotates, tests, lists deliveries and deletes', async () => {
    const { id, secret } = (await call(admin, 'post', '/webhooks', { url: receiver.url, events: ['user.*'] })).body;
    const patched = await call(admin, 'patch', `/webhooks/${id}`, { events: ['user.created', 'client.*'], description: null, enabled: false });
    expect(patched.body).toMatchObject({ events: ['user.created', 'client.*'], description: null, state: 'disabled' });
    expect((await call(admin, 'patch', `/webhooks/${id}`, { enabled: true })).body.state).toBe('active');
    expect((await call(admin, 'patch', `/webhooks/${id}`, { url: 'http://x.example' })).status).toBe(400);
    const rotated = await call(admin, 'post', `/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    const until = Date.parse(rotated.body.previousSecretValidUntil) - Date.now();
    expect(until).toBeGreaterThan(23.9 * 3_600_000);
    expect(until).toBeLessThanOrEqual(24 * 3_600_000);
    const tested = await call(admin, 'post', `/webhooks/${id}/test`);
    expect(tested.status).toBe(202);
    expect(tested.body).toMatchObject({ event: 'webhook.tested', state: 'pending', attempts: 0 });
    const log = await call(admin, 'get', `/webhooks/${id}/deliveries`);
    expect(log.body.items.map((d: Json) => d.event)).toEqual(['webhook.tested']);
    expect((await call(admin, 'post', `/webhooks/${id}/deliveries/${tested.body.id}/redeliver`)).status).toBe(409);
    expect((await call(admin, 'delete', `/webhooks/${id}`)).status).toBe(204);
    expect((await call(admin, 'get', `/webhooks/${id}`)).status).toBe(404);
    const actions = (await call(admin, 'get', `/audit-events?target=${id}`)).body.items.map((e: Json) => e.action);
    expect(actions).toEqual(['webhook.deleted', 'webhook.tested', 'webhook.secret_rotated', 'webhook.updated', 'webhook.updated', 'webhook.created']);
  });

  it('is for Administrators of the tenant only', async () => {
    const { id } = (await call(admin, 'post', '/webhooks', { url: receiver.url, events: ['*'] })).body;
    expect((await call(contact, 'get', '/webhooks')).status).toBe(403);
    expect((await call(contact, 'post', '/webhooks', { url: receiver.url, events: ['*'] })).status).toBe(403);
    expect((await call(outsider, 'get', `/webhooks/${id}`)).status).toBe(404);
    expect((await call(outsider, 'delete', `/webhooks/${id}`)).status).toBe(404);
    expect((await call(outsider, 'get', '/webhooks')).body.items).toEqual([]);
    expect((await call(admin, 'get', '/webhooks/not-a-uuid')).status).toBe(404);
  });
});
