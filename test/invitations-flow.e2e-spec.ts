import type { INestApplication } from '@nestjs/common';
import argon2 from 'argon2';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivationService } from '@gatehouse/accounts';
import { DocService } from '@gatehouse/docs';
import { InvitationLinkService } from '@gatehouse/invitations';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { LogCapture } from './support/log-capture.js';
import { SmtpSink, type SunkMail } from './support/smtp-sink.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const PUBLIC_URL = 'https://id.example.test';

function tokenIn(mail: SunkMail, path: 'invitations' | 'activate'): string {
  const match = new RegExp(`${PUBLIC_URL.replace(/\./g, '\\.')}/${path}/([A-Za-z0-9_-]{43})(?:\\s|$)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[1];
}

describe('invitations, documentation sections and account links', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let fixtures: AdminFixtures;
  let tenant: TenantFixture;
  let contact: OperatorFixture;
  let alice: Json;
  let bob: Json;
  const sink = new SmtpSink();
  const logs = new LogCapture();

  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: unknown) => {
    const req = request(app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${contact.token}`);
    return body === undefined ? req : req.send(body as object);
  };
  const deliver = () => app.get(OutboxDeliveryService).deliverDue(50);
  const invitations = () => app.get(InvitationLinkService);
  async function invite(userId: string, sections: string[], extra: Json = {}): Promise<{ view: Json; token: string }> {
    const before = sink.messages.length;
    const created = await call('post', '/invitations', { userId, sections, ...extra });
    expect(created.status).toBe(201);
    await deliver();
    const [mail] = (await sink.waitFor(() => true, before + 1)).slice(before);
    return { view: created.body, token: tokenIn(mail!, 'invitations') };
  }

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    const config = testConfig(database.url, { smtpUrl: sink.url, publicUrl: PUBLIC_URL, logLevel: 'info' });
    app = await createAdminApp({ config, logDestination: logs });
    dataSource = app.get(DataSource);
    fixtures = new AdminFixtures(app, config);
    tenant = await fixtures.tenant();
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    alice = (await call('post', '/users', { username: 'alice', email: 'alice@example.com', displayName: 'Alice <b>&', password: 'generate' })).body;
    bob = (await call('post', '/users', { username: 'bob', email: 'bob@example.com', displayName: 'Bob', password: 'generate' })).body;
    for (const slug of ['orders-api', 'billing']) {
      const made = await call('post', '/doc-sections', { slug, title: `Title ${slug}`, body: `# ${slug}\n\ntext` });
      expect(made.status).toBe(201);
    }
  });

  afterAll(async () => {
    await app?.close();
    await sink.stop();
    await database?.drop();
  });

  it('creates an invitation whose mail reaches SMTP with a link built from PUBLIC_URL, escaped HTML', async () => {
    const { view, token } = await invite(alice.id, ['orders-api', 'billing']);
    expect(view).toMatchObject({ userId: alice.id, sections: ['orders-api', 'billing'], status: 'pending' });
    expect(view.id, 'time-ordered: UUID version 7, so the sweep audits invitations nearly in id order').toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
    expect(Object.keys(view).sort()).toEqual(['acceptedAt', 'createdAt', 'expiresAt', 'id', 'revokedAt', 'sections', 'status', 'userId']);
    expect(new Date(view.expiresAt).getTime() - Date.now()).toBeGreaterThan(167 * 3600_000);
    const mail = sink.messages.at(-1)!;
    expect(mail.envelopeTo).toEqual(['alice@example.com']);
    expect(mail.html).toContain(`${PUBLIC_URL}/invitations/${token}`);
    expect(mail.html).toContain('Alice &lt;b&gt;&amp;');
    expect(mail.html).not.toContain('Alice <b>');
    const lookup = await invitations().lookup(tenant.tenantId, token);
    expect(lookup).toMatchObject({ invitationId: view.id, userId: alice.id, status: 'pending', contactEmail: contact.user.email });
    expect(lookup.sections).toEqual([
      { slug: 'billing', title: 'Title billing' },
      { slug: 'orders-api', title: 'Title orders-api' },
    ]);
    const dump = JSON.stringify(await dataSource.query(`SELECT * FROM emails`)) + JSON.stringify(await dataSource.query(`SELECT * FROM invitations`));
    expect(dump).not.toContain(token);
    expect(logs.text).not.toContain(token);
    const sent = await call('get', '/emails?status=sent');
    expect(sent.body.items.map((e: Json) => e.to)).toContain('alice@example.com');
    expect(JSON.stringify(sent.body)).not.toMatch(/textBody|htmlBody|text_body/);
  });

  it('accepts once: another user is refused, two concurrent accepts → exactly one wins', async () => {
    const { view, token } = await invite(alice.id, ['orders-api']);
    await expect(invitations().accept(tenant.tenantId, bob.id, token)).rejects.toMatchObject({ code: 'invitation_wrong_user' });
    const results = await Promise.allSettled([
      invitations().accept(tenant.tenantId, alice.id, token),
      invitations().accept(tenant.tenantId, alice.id, token),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect((won[0] as PromiseFulfilledResult<{ sections: string[] }>).value).toEqual({ sections: ['orders-api'] });
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.code).toBe('invitation_already_accepted');
    await expect(invitations().accept(tenant.tenantId, alice.id, token)).rejects.toMatchObject({ code: 'invitation_already_accepted' });
    expect((await invitations().lookup(tenant.tenantId, token)).status).toBe('accepted');
    expect(await app.get(DocService).sectionsOf(tenant.tenantId, alice.id)).toEqual([{ slug: 'orders-api', title: 'Title orders-api' }]);
    expect(await app.get(DocService).sectionFor(tenant.tenantId, alice.id, 'orders-api')).toMatchObject({ body: '# orders-api\n\ntext' });
    expect(await app.get(DocService).sectionFor(tenant.tenantId, alice.id, 'billing')).toBeNull();
    expect(await app.get(DocService).sectionFor(tenant.tenantId, bob.id, 'orders-api')).toBeNull();
    const audit = await dataSource.query(`SELECT action FROM audit_events WHERE target_id = $1 ORDER BY occurred_at`, [view.id]);
    expect(audit.map((a: Json) => a.action)).toEqual(['invitation.created', 'invitation.accepted']);
    await expect(invitations().lookup(tenant.tenantId, 'x'.repeat(43))).rejects.toMatchObject({ code: 'invitation_not_found' });
  });

  it('resend kills the old link; revoke kills the link; expired links say so and cannot be accepted', async () => {
    const first = await invite(bob.id, ['billing']);
    const resent = await call('post', `/invitations/${first.view.id}/resend`);
    expect(resent.status).toBe(200);
    await deliver();
    const second = tokenIn(sink.messages.at(-1)!, 'invitations');
    expect(second).not.toBe(first.token);
    const replaced = await invitations().lookup(tenant.tenantId, first.token);
    expect(replaced).toMatchObject({ invitationId: first.view.id, status: 'superseded' });
    expect(replaced.linkSentAt.getTime()).toBeGreaterThan(Date.parse(first.view.createdAt));
    await expect(invitations().accept(tenant.tenantId, bob.id, first.token)).rejects.toMatchObject({ code: 'invitation_superseded' });
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM superseded_invitation_links`))[0].n).toBe(1);

    const revoked = await call('post', `/invitations/${first.view.id}/revoke`);
    expect(revoked.body.status).toBe('revoked');
    await expect(invitations().accept(tenant.tenantId, bob.id, second)).rejects.toMatchObject({ code: 'invitation_revoked' });
    expect((await invitations().lookup(tenant.tenantId, second)).status).toBe('revoked');
    expect((await call('post', `/invitations/${first.view.id}/revoke`)).status).toBe(409);
    expect((await call('post', `/invitations/${first.view.id}/resend`)).status).toBe(409);

    // A resend may set the new link's validity; without one it gets the default 168 h.
    const again = await invite(bob.id, ['billing'], { expiresInHours: 2 });
    const longer = await call('post', `/invitations/${again.view.id}/resend`, { expiresInHours: 48 });
    expect(longer.status).toBe(200);
    expect(Date.parse(longer.body.expiresAt) - Date.now()).toBeGreaterThan(47.9 * 3_600_000);
    expect(Date.parse(longer.body.expiresAt) - Date.now()).toBeLessThanOrEqual(48 * 3_600_000);
    const byDefault = await call('post', `/invitations/${again.view.id}/resend`);
    expect(Date.parse(byDefault.body.expiresAt) - Date.now()).toBeGreaterThan(167.9 * 3_600_000);
    expect((await call('post', `/invitations/${again.view.id}/resend`, { expiresInHours: 721 })).status).toBe(400);
    expect((await call('post', `/invitations/${again.view.id}/resend`, { expiresInHours: 1, extra: 1 })).status).toBe(400);
    await deliver();

    const late = await invite(bob.id, ['billing'], { expiresInHours: 1 });
    await dataSource.query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [late.view.id]);
    expect((await invitations().lookup(tenant.tenantId, late.token)).status).toBe('expired');
    await expect(invitations().accept(tenant.tenantId, bob.id, late.token)).rejects.toMatchObject({ code: 'invitation_expired' });
    const expired = await call('get', '/invitations?status=expired');
    expect(expired.body.items.map((i: Json) => i.id)).toContain(late.view.id);
    const pending = await call('get', '/invitations?status=pending');
    expect(pending.body.items.map((i: Json) => i.id)).not.toContain(late.view.id);
    expect((await call('get', `/invitations/${late.view.id}`)).body.status).toBe('expired');
  });

  it('a disabled user is not invited, and their pending invitation is not resent', async () => {
    const dora = (await call('post', '/users', { username: 'dora', email: 'dora@example.com', displayName: 'Dora', password: 'generate' })).body;
    const pending = await invite(dora.id, ['billing']);
    expect((await call('post', `/users/${dora.id}/disable`)).status).toBe(200);
    const refused = await call('post', '/invitations', { userId: dora.id, sections: ['billing'] });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('invitation_user_disabled');
    const resend = await call('post', `/invitations/${pending.view.id}/resend`);
    expect(resend.status).toBe(409);
    expect(resend.body.code).toBe('invitation_user_disabled');
    expect((await call('post', `/users/${dora.id}/enable`)).status).toBe(200);
    expect((await call('post', `/invitations/${pending.view.id}/resend`)).status).toBe(200);
    await deliver();
  });

  it('another tenant sees none of it; the OpenAPI document lists the new operations', async () => {
    const other = await fixtures.operator(await fixtures.tenant(), ['ContactPerson']);
    const mine = (await call('get', '/invitations')).body.items[0];
    const as = (method: 'get' | 'post' | 'delete', path: string, body?: unknown) =>
      request(app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${other.token}`).send(body as object);
    expect((await as('get', `/invitations/${mine.id}`)).status).toBe(404);
    expect((await as('post', `/invitations/${mine.id}/revoke`)).status).toBe(404);
    expect((await as('get', '/invitations')).body.items).toEqual([]);
    expect((await as('get', '/doc-sections')).body.items).toEqual([]);
    expect((await as('get', '/emails')).body.items).toEqual([]);
    expect((await as('post', '/invitations', { userId: alice.id, sections: ['billing'] })).status).toBe(400);
    expect((await as('delete', `/users/${alice.id}/sections/billing`)).status).toBe(404);
    const openapi = await request(app.getHttpServer()).get('/admin/openapi.json');
    for (const path of ['/admin/v1/invitations', '/admin/v1/invitations/{id}/resend', '/admin/v1/doc-sections/{slug}', '/admin/v1/emails/{id}/retry', '/admin/v1/users/{id}/reset-password', '/admin/v1/users/{id}/sections/{slug}']) {
      expect(Object.keys(openapi.body.paths)).toContain(path);
    }
  });

  it('revokes one user’s access to one section', async () => {
    expect((await call('delete', `/users/${alice.id}/sections/orders-api`)).status).toBe(204);
    expect(await app.get(DocService).sectionFor(tenant.tenantId, alice.id, 'orders-api')).toBeNull();
    const again = await call('delete', `/users/${alice.id}/sections/orders-api`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('doc_section_access_not_found');
  });

  it('manages sections: update, list, conflict, delete', async () => {
    expect((await call('post', '/doc-sections', { slug: 'billing', title: 'x', body: '' })).status).toBe(409);
    const patched = await call('patch', '/doc-sections/billing', { title: 'Billing' });
    expect(patched.body).toMatchObject({ slug: 'billing', title: 'Billing' });
    const list = await call('get', '/doc-sections?limit=1');
    expect(list.body.items).toHaveLength(1);
    expect(list.body.nextCursor).toEqual(expect.any(String));
    const temp = await call('post', '/doc-sections', { slug: 'temp', title: 'Temp', body: 'x' });
    expect(temp.status).toBe(201);
    expect((await call('delete', '/doc-sections/temp')).status).toBe(204);
    expect((await call('delete', '/doc-sections/temp')).status).toBe(404);
  });

  it('activation link: mailed, sets the password once, dies after use and after 24 h', async () => {
    const created = await call('post', '/users', { username: 'carol', email: 'carol@example.com', displayName: 'Carol', password: 'activation-link' });
    expect(created.status).toBe(201);
    expect(created.body.initialPassword).toBeUndefined();
    await deliver();
    const mail = (await sink.waitFor((m) => m.envelopeTo[0] === 'carol@example.com'))[0]!;
    const token = tokenIn(mail, 'activate');
    const activation = app.get(ActivationService);
    expect(await activation.lookupActivation(tenant.tenantId, token)).toMatchObject({ userId: created.body.id, status: 'valid', purpose: 'activation' });
    const hash = await argon2.hash('a long enough passphrase', { type: argon2.argon2id });
    await expect(activation.completeActivation(tenant.tenantId, token, hash)).resolves.toEqual({ userId: created.body.id });
    const [row] = await dataSource.query(`SELECT password_hash, must_change_password FROM users WHERE id = $1`, [created.body.id]);
    expect(row).toEqual({ password_hash: hash, must_change_password: false });
    await expect(activation.completeActivation(tenant.tenantId, token, hash)).rejects.toMatchObject({ code: 'account_link_used' });
    expect((await activation.lookupActivation(tenant.tenantId, token)).status).toBe('used');

    await call('post', '/users', { username: 'dave', email: 'dave@example.com', displayName: 'Dave', password: 'activation-link' });
    await deliver();
    const daveToken = tokenIn((await sink.waitFor((m) => m.envelopeTo[0] === 'dave@example.com'))[0]!, 'activate');
    const [link] = await dataSource.query(`SELECT extract(epoch FROM expires_at - created_at)::float AS secs FROM account_links ORDER BY created_at DESC LIMIT 1`);
    expect(link.secs).toBeLessThanOrEqual(24 * 3600);
    expect(link.secs).toBeGreaterThan(24 * 3600 - 60);
    await dataSource.query(`UPDATE account_links SET created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour' WHERE used_at IS NULL`);
    await expect(activation.completeActivation(tenant.tenantId, daveToken, hash)).rejects.toMatchObject({ code: 'account_link_expired' });
    await expect(activation.completeActivation(tenant.tenantId, 'nope', hash)).rejects.toMatchObject({ code: 'account_link_not_found' });
  });

  it('unlock and reset password (generate, activation-link)', async () => {
    await dataSource.query(`UPDATE users SET locked_until = now() + interval '1 hour', failed_login_count = 7 WHERE id = $1`, [bob.id]);
    const unlocked = await call('post', `/users/${bob.id}/unlock`);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.lockedUntil).toBeNull();
    expect((await dataSource.query(`SELECT failed_login_count FROM users WHERE id = $1`, [bob.id]))[0].failed_login_count).toBe(0);

    const generated = await call('post', `/users/${bob.id}/reset-password`, { mode: 'generate' });
    expect(generated.status).toBe(200);
    expect(generated.body).toMatchObject({ mustChangePassword: true, initialPassword: expect.any(String) });
    const [row] = await dataSource.query(`SELECT password_hash FROM users WHERE id = $1`, [bob.id]);
    expect(await argon2.verify(row.password_hash, generated.body.initialPassword)).toBe(true);

    const linked = await call('post', `/users/${bob.id}/reset-password`, { mode: 'activation-link' });
    expect(linked.status).toBe(200);
    expect(linked.body.initialPassword).toBeUndefined();
    expect((await dataSource.query(`SELECT password_hash FROM users WHERE id = $1`, [bob.id]))[0].password_hash).toBeNull();
    await deliver();
    const mail = (await sink.waitFor((m) => m.envelopeTo[0] === 'bob@example.com' && m.subject === 'Choose a new password'))[0]!;
    expect(tokenIn(mail, 'activate')).toHaveLength(43);
    const audit = await dataSource.query(`SELECT action FROM audit_events WHERE target_id = $1 AND action LIKE 'user.%' ORDER BY occurred_at`, [bob.id]);
    expect(audit.map((a: Json) => a.action)).toEqual(['user.created', 'user.unlocked', 'user.password.reset', 'user.password.reset']);
  });
});
