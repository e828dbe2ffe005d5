import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture } from './support/admin-fixtures.js';
import { SmtpSink } from './support/smtp-sink.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const FAST = { baseBackoffMs: 60_000, maxBackoffMs: 600_000, maxAttempts: 5 };

describe('mail outbox: SMTP down, backoff, abandon, retry, bad input', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let contact: OperatorFixture;
  let user: Json;
  const sink = new SmtpSink();

  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: unknown, raw?: string) => {
    let req = request(app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${contact.token}`);
    if (raw !== undefined) req = req.set('content-type', 'application/json').send(raw);
    else if (body !== undefined) req = req.send(body as object);
    return req;
  };
  const deliver = () => app.get(OutboxDeliveryService).deliverDue(50, FAST);
  const makeDue = () => dataSource.query(`UPDATE emails SET next_attempt_at = now() WHERE status IN ('queued', 'failed')`);

  beforeAll(async () => {
    await sink.start();
    await sink.stop(); // SMTP is down until the test starts it again on the same port
    database = await createTestDatabase();
    const config = testConfig(database.url, { smtpUrl: sink.url });
    app = await createAdminApp({ config });
    dataSource = app.get(DataSource);
    const fixtures = new AdminFixtures(app, config);
    const tenant = await fixtures.tenant();
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    user = (await call('post', '/users', { username: 'erin', email: 'erin@example.com', displayName: 'Erin', password: 'generate' })).body;
    await call('post', '/doc-sections', { slug: 'guide', title: 'Guide', body: 'x' });
  });

  afterAll(async () => {
    await app?.close();
    await sink.stop();
    await database?.drop();
  });

  it('SMTP down: the invitations and their mails commit; retries back off; when SMTP is back each is sent once', async () => {
    for (let i = 0; i < 3; i++) expect((await call('post', '/invitations', { userId: user.id, sections: ['guide'] })).status).toBe(201);
    const first = await deliver();
    expect(first).toEqual({ claimed: 3, sent: 0, failed: 3 });
    const rows = await dataSource.query(`SELECT status, attempts, next_attempt_at > now() + interval '50 seconds' AS backed_off FROM emails`);
    expect(rows).toEqual(Array(3).fill({ status: 'failed', attempts: 1, backed_off: true }));
    expect(await deliver()).toEqual({ claimed: 0, sent: 0, failed: 0 });
    await makeDue();
    await deliver();
    const second = await dataSource.query(`SELECT extract(epoch FROM next_attempt_at - now())::int AS wait FROM emails`);
    for (const row of second) expect(row.wait).toBeGreaterThan(110); // 60 s · 2^1
    await sink.start();
    await makeDue();
    expect(await deliver()).toEqual({ claimed: 3, sent: 3, failed: 0 });
    expect(await deliver()).toEqual({ claimed: 0, sent: 0, failed: 0 });
    expect(sink.messages).toHaveLength(3);
    expect(new Set(sink.messages.map((m) => m.parsed.messageId)).size).toBe(3);
    const sent = await call('get', '/emails?status=sent');
    expect(sent.body.items).toHaveLength(3);
    expect(sent.body.items[0]).toMatchObject({ to: 'erin@example.com', template: 'invitation', status: 'sent', attempts: 3 });
  });

  it('a permanent rejection (5xx) is abandoned at once, shows no future attempt, and retry requeues it', async () => {
    sink.refuse = (address) => address.startsWith('bounce');
    const bounce = (await call('post', '/users', { username: 'bounce', email: 'bounce@example.com', displayName: 'B', password: 'generate' })).body;
    await call('post', '/invitations', { userId: bounce.id, sections: ['guide'] });
    await makeDue();
    expect(await deliver()).toEqual({ claimed: 1, sent: 0, failed: 1 });
    await makeDue();
    expect(await deliver()).toEqual({ claimed: 0, sent: 0, failed: 0 });
    const abandoned = await call('get', '/emails?status=abandoned');
    expect(abandoned.body.items).toHaveLength(1);
    const email = abandoned.body.items[0];
    expect(email).toMatchObject({ to: 'bounce@example.com', attempts: 1, status: 'abandoned', nextAttemptAt: null });
    expect(email.lastError).toMatch(/^rejected: .*550/);
    const retried = await call('post', `/emails/${email.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'queued', attempts: 0, retryUntil: null });
    expect((await call('post', `/emails/${email.id}/retry`)).body.code).toBe('email_not_retryable');
    sink.refuse = () => false;
    expect(await deliver()).toMatchObject({ sent: 1 });
    expect((await call('post', `/emails/${email.id}/retry`)).status).toBe(409);
    const sent = (await call('get', '/emails?status=sent')).body.items;
    expect(sent.every((m: Json) => m.nextAttemptAt === null)).toBe(true);
  });

  it('a claim left by a crashed worker expires and the mail is delivered by the next one', async () => {
    await call('post', '/invitations', { userId: user.id, sections: ['guide'] });
    await dataSource.query(`UPDATE emails SET status = 'sending', attempts = 1, locked_until = now() + interval '5 minutes' WHERE status = 'queued'`);
    expect(await deliver()).toEqual({ claimed: 0, sent: 0, failed: 0 });
    await dataSource.query(`UPDATE emails SET locked_until = now() - interval '1 second' WHERE status = 'sending'`);
    expect(await deliver()).toEqual({ claimed: 1, sent: 1, failed: 0 });
    const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM emails WHERE status <> 'sent'`);
    expect(row.n).toBe(0);
  });

  it('answers bad input on every new endpoint with a 4xx problem, never 5xx', async () => {
    const long = 'x'.repeat(70_000);
    const cases: Array<[string, string, unknown, number, string?]> = [
      ['post', '/invitations', { userId: user.id, sections: ['guide'], extra: 1 }, 400],
      ['post', '/invitations', { userId: 'not-a-uuid', sections: ['guide'] }, 400],
      ['post', '/invitations', { userId: user.id, sections: 'guide' }, 400],
      ['post', '/invitations', { userId: user.id, sections: [] }, 400],
      ['post', '/invitations', { userId: user.id, sections: ['guide'], expiresInHours: 721 }, 400],
      ['post', '/invitations', { userId: user.id, sections: ['guide'], expiresInHours: 0 }, 400],
      ['post', '/invitations', { userId: user.id, sections: ['guide'], expiresInHours: '5' }, 400],
      ['post', '/invitations', { userId: user.id, sections: ['nope'] }, 400, 'invitation_unknown_sections'],
      ['post', '/invitations', { userId: '00000000-0000-4000-8000-000000000000', sections: ['guide'] }, 400, 'invitation_user_not_found'],
      ['post', '/invitations', { userId: user.id, sections: ['a'.repeat(65)] }, 400],
      ['post', '/invitations', undefined, 400],
      ['get', '/invitations?status=bogus', undefined, 400],
      ['get', '/invitations?limit=abc', undefined, 400],
      ['get', '/invitations?cursor=garbage', undefined, 400],
      ['get', '/invitations/00000000-0000-4000-8000-000000000000', undefined, 404],
      ['get', '/invitations/not-a-uuid', undefined, 404],
      ['post', '/invitations/not-a-uuid/resend', undefined, 404],
      ['post', '/invitations/00000000-0000-4000-8000-000000000000/revoke', undefined, 404],
      ['post', '/doc-sections', { slug: 'Bad Slug', title: 't', body: 'b' }, 400],
      ['post', '/doc-sections', { slug: 'ok', title: 'a\r\nb', body: 'b' }, 400],
      ['post', '/doc-sections', { slug: 'ok', title: 't', body: 5 }, 400],
      ['post', '/doc-sections', { slug: 'ok', title: 't', body: 'b', id: 'x' }, 400],
      ['post', '/doc-sections', { slug: 'ok', title: 't', body: 'x'.repeat(50_001) }, 400],
      ['post', '/doc-sections', { slug: 'ok', title: 'x'.repeat(201), body: 'b' }, 400],
      ['post', '/doc-sections', { slug: 'ok', title: 't', body: long }, 413],
      ['patch', '/doc-sections/guide', { slug: 'new' }, 400],
      ['patch', '/doc-sections/missing', { title: 't' }, 404],
      ['delete', '/doc-sections/missing', undefined, 404],
      ['delete', `/users/${user.id}/sections/missing`, undefined, 404],
      ['delete', '/users/not-a-uuid/sections/guide', undefined, 404],
      ['post', '/users', { username: 'x1', email: 'a@example.com\r\nBcc: evil@example.com', displayName: 'X' }, 400],
      ['post', '/users', { username: 'x2', email: 'a@example.com, evil@example.com', displayName: 'X' }, 400],
      ['post', '/users', { username: 'x3', email: 'A <a@example.com>', displayName: 'X' }, 400],
      ['post', '/users', { username: 'x4', email: 'a@example.com', displayName: 'X', password: 'email' }, 400],
      ['post', `/users/${user.id}/reset-password`, {}, 400],
      ['post', `/users/${user.id}/reset-password`, { mode: 'magic' }, 400],
      ['post', `/users/${user.id}/reset-password`, { mode: 'generate', password: 'x' }, 400],
      ['post', '/users/00000000-0000-4000-8000-000000000000/reset-password', { mode: 'generate' }, 404],
      ['post', '/users/not-a-uuid/unlock', undefined, 404],
      ['get', '/emails?status=lost', undefined, 400],
      ['post', '/emails/not-a-uuid/retry', undefined, 404],
      ['post', '/emails/00000000-0000-4000-8000-000000000000/retry', undefined, 404],
    ];
    for (const [method, path, body, status, code] of cases) {
      const response = await call(method as 'post', path, body);
      expect(response.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).toBe(status);
      expect(response.headers['content-type']).toContain('application/problem+json');
      if (code) expect(response.body.code).toBe(code);
    }
    const malformed = await call('post', '/invitations', undefined, '{"userId": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('malformed_json');
    const rows = await dataSource.query(`SELECT count(*)::int AS n FROM emails WHERE to_address ~ '[\\r\\n,]'`);
    expect(rows[0].n).toBe(0);
  });
});
