import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, SYSTEM_ACTOR } from '@gatehouse/audit';
import { UserService } from '@gatehouse/accounts';
import { DocService } from '@gatehouse/docs';
import { InvitationService } from '@gatehouse/invitations';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { LogCapture } from './support/log-capture.js';
import { SmtpSink } from './support/smtp-sink.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { WebClient, csrfOf } from './support/web-client.js';

const ORIGIN = 'http://localhost:3000';

/** Invitation and activation links in the Web UI (SECURITY.md 28–31), over HTTP. */
describe('web UI: invitation and activation links', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let web: WebClient;
  let tenantId: string;
  let contact: Actor;
  const sink = new SmtpSink();
  const logs = new LogCapture();

  async function invite(username: string): Promise<{ path: string; id: string; userId: string }> {
    const user = await web.user(username);
    const invitation = await app
      .get(InvitationService)
      .create(tenantId, contact, { userId: user.id, sections: ['guide'] });
    await app.get(OutboxDeliveryService).deliverDue();
    const [mail] = await sink.waitFor((m) => m.envelopeTo.includes(`${username}@example.com`));
    const path = /\/invitations\/[A-Za-z0-9_%-]+/.exec(mail!.text)![0];
    return { path, id: invitation.id, userId: user.id };
  }

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    app = await createIdentityApp({
      config: testConfig(database.url, { publicUrl: ORIGIN, smtpUrl: sink.url, logLevel: 'info' }),
      logDestination: logs,
    });
    const [row] = await app
      .get(DataSource)
      .query(`INSERT INTO tenants (slug, display_name) VALUES ('acme', 'Acme') RETURNING id`);
    tenantId = row.id;
    web = new WebClient(app, ORIGIN, tenantId);
    const carla = await app.get(UserService).create(tenantId, SYSTEM_ACTOR, {
      username: 'carla',
      email: 'carla@acme.example',
      displayName: 'Carla',
      roles: ['ContactPerson'],
    });
    contact = {
      type: 'user',
      userId: carla.id,
      clientId: null,
      permissions: ['Users.Read', 'Users.Manage', 'Invitations.Manage', 'Docs.Manage'],
    };
    await app.get(DocService).create(tenantId, contact, { slug: 'guide', title: 'Guide', body: 'Hello' });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await sink.stop();
    await database?.drop();
  });

  it('sends an anonymous visitor who has a password to the login prompt and back, without caching or referrer', async () => {
    const { path } = await invite('ann');
    const res = await request(app.getHttpServer()).get(path).expect(303);
    expect(res.headers.location).toBe(`/login?returnTo=${path}`);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    await request(app.getHttpServer()).get(res.headers.location).expect(200);
    expect(logs.text).toContain('/invitations/[redacted]');
    expect(logs.text).not.toContain(path.split('/')[2]); // the token is masked in the access log, also inside returnTo
  });

  it('a GET never consumes the link; another user is refused; two accepts: exactly one wins', async () => {
    const { path } = await invite('ben');
    await web.user('eve');
    const ben = await web.login('ben');
    for (let i = 0; i < 3; i++) expect((await ben.agent.get(path)).status).toBe(200);
    const eve = await web.login('eve');
    const refused = await eve.agent.get(path);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('another account');
    const evePage = await eve.agent.get('/docs');
    expect(
      (
        await eve.agent
          .post(path)
          .set('Origin', ORIGIN)
          .type('form')
          .send({ _csrf: csrfOf(evePage.text) })
      ).status,
    ).toBe(403);
    const page = await ben.agent.get(path);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect((await ben.agent.post(path).type('form').send({})).status).toBe(403); // no CSRF token
    const accept = () =>
      ben.agent
        .post(path)
        .set('Origin', ORIGIN)
        .type('form')
        .send({ _csrf: csrfOf(page.text) });
    const results = await Promise.all([accept(), accept()]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 410]);
    expect((await ben.agent.get('/docs')).text).toContain('href="/docs/guide"');
    expect((await ben.agent.get('/docs/guide')).status).toBe(200);
    expect((await eve.agent.get('/docs/guide')).status).toBe(404);
    expect((await ben.agent.get('/docs/x%00y')).status).toBe(404);
    expect((await ben.agent.get('/invitations/x%00y')).status).toBe(404);
  });

  it('a dead link says so to every visitor, signed in or not, naming whom to ask and no section', async () => {
    const anonymous = () => request(app.getHttpServer());
    const used = await invite('gus');
    const gus = await web.login('gus');
    const page = await gus.agent.get(used.path);
    expect((await gus.agent.post(used.path).set('Origin', ORIGIN).type('form').send({ _csrf: csrfOf(page.text) })).status).toBe(303);
    const expired = await invite('hana');
    await app.get(DataSource).query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
    const revoked = await invite('ivan');
    await app.get(InvitationService).revoke(tenantId, contact, revoked.id);
    for (const [path, says] of [
      [used.path, 'already been used'],
      [expired.path, 'expired'],
      [revoked.path, 'withdrawn'],
    ] as const) {
      const res = await anonymous().get(path);
      expect(res.status, path).toBe(410);
      expect(res.text).toContain(says);
      expect(res.text).toContain('carla@acme.example');
      expect(res.text).not.toContain('Guide'); // the section's title: not for anonymous eyes
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect((await anonymous().post(path).type('form').send({})).status).toBe(403); // no CSRF token, nothing done
    }
  });

  it('a link replaced by a resend answers 410 with the day the newer one was sent', async () => {
    const first = await invite('jill');
    await app.get(InvitationService).resend(tenantId, contact, first.id);
    const [{ sent }] = await app.get(DataSource).query(`SELECT link_sent_at AS sent FROM invitations WHERE id = $1`, [first.id]);
    const expected = new Date(sent).toISOString().slice(0, 16).replace('T', ' ');
    const anonymous = await request(app.getHttpServer()).get(first.path);
    expect(anonymous.status).toBe(410);
    expect(anonymous.text).toContain(`A newer link was sent to you on ${expected} UTC`);
    expect(anonymous.text).not.toContain('Check that you copied it');
    const jill = await web.login('jill');
    const signedIn = await jill.agent.get(first.path);
    expect(signedIn.status).toBe(410);
    const accept = await jill.agent.post(first.path).set('Origin', ORIGIN).type('form').send({ _csrf: csrfOf((await jill.agent.get('/docs')).text) });
    expect(accept.status).toBe(410);
    expect(accept.text).toContain('A newer link was sent to you on');
  });

  it('answers 410 for an expired or revoked link, naming whom to ask, and 404 for an unknown one', async () => {
    const expired = await invite('cleo');
    const cleo = await web.login('cleo');
    await app
      .get(DataSource)
      .query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
    const gone = await cleo.agent.get(expired.path);
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('expired');
    expect(gone.text).toContain('carla@acme.example');
    const revoked = await invite('dora');
    await app.get(InvitationService).revoke(tenantId, contact, revoked.id);
    const dora = await web.login('dora');
    const withdrawn = await dora.agent.get(revoked.path);
    expect(withdrawn.status).toBe(410);
    expect(withdrawn.text).toContain('withdrawn');
    expect((await dora.agent.get('/invitations/not-a-real-token')).status).toBe(404);
  });

  it('activation links: single use, expired → 410, policy reasons shown', async () => {
    await app.get(UserService).create(tenantId, contact, {
      username: 'finn',
      email: 'finn@example.com',
      displayName: 'Finn',
      password: 'activation-link',
    });
    await app.get(OutboxDeliveryService).deliverDue();
    const [mail] = await sink.waitFor((m) => m.envelopeTo.includes('finn@example.com'));
    const path = /\/activate\/[A-Za-z0-9_%-]+/.exec(mail!.text)![0];
    const agent = request.agent(app.getHttpServer());
    const page = await agent.get(path).expect(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const post = (password: string) =>
      agent
        .post(path)
        .set('Origin', ORIGIN)
        .type('form')
        .send({ _csrf: csrfOf(page.text), newPassword: password, confirmPassword: password });
    const weak = await post('passwordpassword1');
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('commonly used');
    expect((await agent.post(path).type('form').send({ newPassword: 'x' })).status).toBe(403);
    expect((await post('a perfectly fine passphrase')).status).toBe(200);
    expect((await agent.get(path)).status).toBe(410);
    expect((await post('another fine passphrase')).status).toBe(410);
    expect((await web.login('finn', 'a perfectly fine passphrase')).res.status).toBe(303);
    await app
      .get(DataSource)
      .query(`UPDATE account_links SET expires_at = now() - interval '1 second', used_at = NULL`);
    expect((await agent.get(path)).status).toBe(410);
  });
});
