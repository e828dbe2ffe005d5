import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { AdminFixtures, type OperatorFixture } from './support/admin-fixtures.js';
import { LogCapture } from './support/log-capture.js';
import { SmtpSink, type SunkMail } from './support/smtp-sink.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { cookieOf, csrfOf } from './support/web-client.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ORIGIN = 'http://localhost:3000';
const PASSWORD = 'a quiet harbour at first light';

/**
 * A partner's first hour: a user created with the API's defaults gets an activation link; an
 * invitation to someone without a password leads through choosing one, then accepting — one link,
 * one flow; mails never speak of an old password to someone who never had one; invitations can
 * be short-lived.
 */
describe('first password: default activation, invitation for someone without a password, short links', () => {
  let database: TestDatabase;
  let admin: INestApplication;
  let identity: INestApplication;
  let dataSource: DataSource;
  let contact: OperatorFixture;
  const sink = new SmtpSink();

  const call = (method: 'get' | 'post', path: string, body?: unknown) => {
    const req = request(admin.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${contact.token}`);
    return body === undefined ? req : req.send(body as object);
  };
  const web = () => request.agent(identity.getHttpServer());

  /** Delivers the outbox and returns the newest mail to `to` whose text matches. */
  async function mailTo(to: string, matching: RegExp): Promise<SunkMail> {
    await identity.get(OutboxDeliveryService).deliverDue(50);
    const found = await sink.waitFor((m) => m.envelopeTo.includes(to) && matching.test(m.text));
    return found.at(-1)!;
  }
  const pathIn = (mail: SunkMail, kind: 'invitations' | 'activate') => new RegExp(`/${kind}/[A-Za-z0-9_-]{43}`).exec(mail.text)![0];

  async function createUser(username: string, extra: Json = {}): Promise<Json> {
    const created = await call('post', '/users', { username, email: `${username}@example.com`, displayName: `${username} Partner`, ...extra });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function invite(userId: string, extra: Json = {}): Promise<Json> {
    const created = await call('post', '/invitations', { userId, sections: ['orders'], ...extra });
    expect(created.status, created.text).toBe(201);
    return created.body;
  }

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    const config = testConfig(database.url, { smtpUrl: sink.url, publicUrl: ORIGIN });
    admin = await createAdminApp({ config, logDestination: new LogCapture() });
    identity = await createIdentityApp({ config, logDestination: new LogCapture() });
    dataSource = admin.get(DataSource);
    const fixtures = new AdminFixtures(admin, config);
    contact = await fixtures.operator(await fixtures.tenant('default'), ['ContactPerson']);
    expect((await call('post', '/doc-sections', { slug: 'orders', title: 'Orders API handbook', body: '# Orders' })).status).toBe(201);
  });

  afterAll(async () => {
    await identity?.close();
    await admin?.close();
    await sink.stop();
    await database?.drop();
  });

  it('POST /users without a password mails the activation link by default, and the OpenAPI document says so', async () => {
    const user = await createUser('ada');
    expect(user).toMatchObject({ mustChangePassword: true });
    expect(user.initialPassword).toBeUndefined();
    const mail = await mailTo('ada@example.com', /\/activate\//);
    expect(mail.subject).toBe('Set up your account');
    const [audit] = await dataSource.query(`SELECT details FROM audit_events WHERE action = 'user.created' AND target_id = $1`, [user.id]);
    expect(audit.details.setup).toBe('activation-link');
    const doc = await request(admin.getHttpServer()).get('/admin/openapi.json');
    expect(doc.body.components.schemas.CreateUserDto.properties.password).toMatchObject({ default: 'activation-link' });
  });

  it('an invitation to someone without a password: one link → choose a password → signed in → accept', async () => {
    const user = await createUser('bea');
    const activation = pathIn(await mailTo('bea@example.com', /\/activate\//), 'activate');
    await invite(user.id);
    const mail = await mailTo('bea@example.com', /\/invitations\//);
    expect(mail.text).toContain('has no password yet');
    expect(mail.text).toContain('choose your password, then accept');
    const link = pathIn(mail, 'invitations');

    const agent = web();
    const form = await agent.get(link).expect(200);
    expect(form.text).toContain('Choose your password');
    expect(form.text).not.toContain('Orders API handbook'); // sections only once signed in
    expect(form.headers['referrer-policy']).toBe('no-referrer');
    const choose = (password: string, confirm = password) =>
      agent.post(link).set('Origin', ORIGIN).type('form').send({ _csrf: csrfOf(form.text), newPassword: password, confirmPassword: confirm });
    const weak = await choose('passwordpassword1');
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('commonly used');
    expect((await agent.post(link).set('Origin', ORIGIN).type('form').send({ newPassword: PASSWORD, confirmPassword: PASSWORD })).status).toBe(403);
    const set = await choose(PASSWORD);
    expect(set.status).toBe(303);
    expect(set.headers.location).toBe(link);
    expect(cookieOf(set, 'gh_session')).toBeTruthy();

    const acceptPage = await agent.get(link).expect(200);
    expect(acceptPage.text).toContain('Orders API handbook');
    const accepted = await agent.post(link).set('Origin', ORIGIN).type('form').send({ _csrf: csrfOf(acceptPage.text) });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.location).toBe('/docs');
    expect((await agent.get('/docs/orders')).status).toBe(200);

    expect((await web().get(activation)).status).toBe(410); // the other link died with the password set
    expect((await web().get(link)).status).toBe(410);
    const again = await web().post(link).set('Origin', ORIGIN).type('form').send({ _csrf: csrfOf(form.text), newPassword: 'x' });
    expect([403, 410]).toContain(again.status);
    const actions = await dataSource.query(
      `SELECT action, details->>'purpose' AS purpose FROM audit_events WHERE target_id IN ($1::text, (SELECT id::text FROM invitations WHERE user_id = $1::uuid)) ORDER BY occurred_at, action`,
      [user.id],
    );
    expect(actions.map((a: Json) => `${a.action}${a.purpose ? `:${a.purpose}` : ''}`)).toEqual([
      'user.created',
      'invitation.created',
      'user.password.set_by_link:invitation',
      'invitation.accepted',
    ]);
  });

  it('a password can be chosen through an invitation link for 24 hours after it was sent; a resend opens a new 24 hours', async () => {
    const user = await createUser('cy');
    const invitation = await invite(user.id);
    const link = pathIn(await mailTo('cy@example.com', /\/invitations\//), 'invitations');
    await dataSource.query(`UPDATE invitations SET link_sent_at = now() - interval '25 hours' WHERE id = $1`, [invitation.id]);
    const agent = web();
    const closed = await agent.get(link);
    expect(closed.status).toBe(410);
    expect(closed.text).toContain('24 hours');
    const anonymousForm = await agent.get('/login');
    const post = await agent.post(link).set('Origin', ORIGIN).type('form').send({ _csrf: csrfOf(anonymousForm.text), newPassword: PASSWORD, confirmPassword: PASSWORD });
    expect(post.status).toBe(410);
    expect((await dataSource.query(`SELECT password_hash FROM users WHERE id = $1`, [user.id]))[0].password_hash).toBeNull();
    expect((await call('post', `/invitations/${invitation.id}/resend`)).status).toBe(200);
    const fresh = pathIn(await mailTo('cy@example.com', /\/invitations\/.*/s), 'invitations');
    expect(fresh).not.toBe(link);
    expect((await web().get(fresh)).status).toBe(200);
  });

  it('someone who has a password is sent to the login prompt, as before', async () => {
    const user = await createUser('dan', { password: 'generate' });
    await invite(user.id);
    const mail = await mailTo('dan@example.com', /\/invitations\//);
    expect(mail.text).toContain('log in and accept');
    const link = pathIn(mail, 'invitations');
    const res = await web().get(link).expect(303);
    expect(res.headers.location).toBe(`/login?returnTo=${link}`);
  });

  it('the reset mail speaks of an old password only to someone who had one', async () => {
    const never = await createUser('eve');
    await mailTo('eve@example.com', /\/activate\//);
    for (let round = 0; round < 2; round++) {
      const before = sink.messages.filter((m) => m.envelopeTo.includes('eve@example.com')).length;
      expect((await call('post', `/users/${never.id}/reset-password`, { mode: 'activation-link' })).status).toBe(200);
      await identity.get(OutboxDeliveryService).deliverDue(50);
      const latest = (await sink.waitFor((m) => m.envelopeTo.includes('eve@example.com'), before + 1)).at(-1)!;
      expect(latest.subject).toBe('Set up your account');
      expect(latest.text).not.toContain('no longer works');
    }
    const had = await createUser('fay', { password: 'generate' });
    expect((await call('post', `/users/${had.id}/reset-password`, { mode: 'activation-link' })).status).toBe(200);
    const reset = await mailTo('fay@example.com', /\/activate\//);
    expect(reset.subject).toBe('Choose a new password');
    expect(reset.text).toContain('the old one no longer works');
  });

  it('invitations can be short-lived: expiresInMinutes (≥ 5) on create and resend, or hours — not both', async () => {
    const user = await createUser('gil', { password: 'generate' });
    const short = await invite(user.id, { expiresInMinutes: 5 });
    const lifetime = Date.parse(short.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(4.5 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000);
    const resent = await call('post', `/invitations/${short.id}/resend`, { expiresInMinutes: 30 });
    expect(resent.status).toBe(200);
    expect(Date.parse(resent.body.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(Date.parse(resent.body.expiresAt) - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    const tooShort = await call('post', '/invitations', { userId: user.id, sections: ['orders'], expiresInMinutes: 4 });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.errors).toEqual([{ field: 'expiresInMinutes', message: expect.stringContaining('5') }]);
    const both = await call('post', '/invitations', { userId: user.id, sections: ['orders'], expiresInHours: 1, expiresInMinutes: 30 });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('invitation_invalid_expiry');
    const [audit] = await dataSource.query(`SELECT details FROM audit_events WHERE action = 'invitation.created' AND target_id = $1`, [short.id]);
    expect(audit.details.expiresInMinutes).toBe(5);
  });
});
