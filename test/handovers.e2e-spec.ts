import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandoverSweepService } from '@gatehouse/handovers';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { SmtpSink } from './support/smtp-sink.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { csrfOf } from './support/web-client.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const PARTNER = '192.0.2.33';

/** One-time credential handovers through the admin API and their link, with every refusal. */
describe('credential handovers', () => {
  let database: TestDatabase;
  let identity: INestApplication;
  let admin: INestApplication;
  let dataSource: DataSource;
  let publicUrl: string;
  let tenant: TenantFixture;
  let administrator: OperatorFixture;
  let contact: OperatorFixture;
  let it_: OperatorFixture;
  let client: Json;
  const sink = new SmtpSink();
  const logs = new LogCapture();
  const secrets: string[] = [];
  const links: string[] = [];

  const call = (method: 'get' | 'post' | 'put', path: string, token: string, body?: unknown) => {
    const req = request(admin.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${token}`);
    return body === undefined ? req : req.send(body as object);
  };
  const count = async (sql: string, params: unknown[] = []) =>
    ((await dataSource.query(sql, params))[0] as { n: number }).n;

  /** Creates a handover and returns it with the path of its link, read from the mail. */
  async function handover(clientId: string, token: string, body: Json = {}) {
    const created = await call('post', `/clients/${clientId}/handovers`, token, body);
    expect(created.status).toBe(201);
    const seen = sink.messages.length;
    await admin.get(OutboxDeliveryService).deliverDue();
    const [mail] = sink.messages.slice(seen).filter((m) => m.envelopeTo[0] === created.body.recipientEmail);
    const link = /\/handover\/[A-Za-z0-9_-]+/.exec(mail!.text)![0];
    expect(JSON.stringify(created.body)).not.toContain(link.split('/').pop()!);
    links.push(link);
    return { ...created.body, link } as Json;
  }

  /** A browser's visit: GET the link page (its CSRF token), then maybe press Reveal. */
  async function open(link: string) {
    const agent = request.agent(identity.getHttpServer());
    const page = await agent.get(link).set('X-Forwarded-For', PARTNER);
    // A dead link's page has no form: a forged POST takes the anonymous token of another page.
    const csrf = csrfOf(page.text) || csrfOf((await agent.get('/request-access')).text);
    const reveal = () =>
      agent.post(link).set('X-Forwarded-For', PARTNER).set('Origin', publicUrl).type('form').send({ _csrf: csrf });
    return { page, reveal };
  }

  const secretIn = (html: string) => /id="client-secret">([^<]+)</.exec(html)?.[1];

  /**
   * The token endpoint's answer for these credentials once it is `expected`, or after 2 s: replicas
   * hear of a new or revoked secret through NOTIFY, a few milliseconds after the commit.
   */
  async function tokenStatus(clientId: string, secret: string, expected: number) {
    const deadline = Date.now() + 2000;
    for (;;) {
      const res = await fetch(`${publicUrl}/${tenant.tenantId}/oauth2/v2.0/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: secret,
          scope: 'api://orders/.default',
        }),
      });
      if (res.status === expected || Date.now() > deadline) return res.status;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    const config = testConfig(database.url, {
      publicUrl,
      smtpUrl: sink.url,
      trustProxy: ['loopback'],
      logLevel: 'info',
    });
    identity = await createIdentityApp({ config, logDestination: logs });
    await identity.listen(port, '127.0.0.1');
    admin = await createAdminApp({ config, logDestination: logs });
    dataSource = admin.get(DataSource);
    const fixtures = new AdminFixtures(admin, config);
    tenant = await fixtures.tenant('default');
    administrator = await fixtures.operator(tenant, ['Administrator']);
    contact = await fixtures.operator(tenant, ['ContactPerson'], 'carla');
    it_ = await fixtures.operator(tenant, ['ITDepartment']);
    const api = await call('post', '/apis', it_.token, { identifier: 'api://orders', displayName: 'Orders' });
    await call('post', `/apis/${api.body.id}/scopes`, it_.token, { value: 'Orders.Read' });
    client = (
      await call('post', '/clients', contact.token, {
        displayName: 'Partner sync',
        contactEmail: 'ops@partner.example',
      })
    ).body;
    await call('put', `/clients/${client.clientId}/scopes`, it_.token, { scopes: ['api://orders/Orders.Read'] });
  }, 60_000);

  afterAll(async () => {
    await identity?.close();
    await admin?.close();
    await sink.stop();
    await database?.drop();
  });

  it("mails a one-time link to the client's contact, valid 72 hours; nothing secret exists until the reveal", async () => {
    const sent = await handover(client.clientId, contact.token);
    expect(sent).toMatchObject({
      status: 'pending',
      recipientEmail: 'ops@partner.example',
      clientId: client.clientId,
      createdByUserId: contact.user.id,
    });
    expect(Math.abs(new Date(sent.expiresAt).getTime() - Date.now() - 72 * 3_600_000)).toBeLessThan(60_000);
    const [mail] = sink.messages.filter((m) => m.envelopeTo[0] === 'ops@partner.example');
    expect(mail!.subject).toBe('default: credentials for Partner sync');
    const columns: Array<{ column_name: string }> = await dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'credential_handovers'`,
    );
    expect(columns.map((c) => c.column_name).filter((c) => /secret|cipher|sealed|value/.test(c))).toEqual([
      'secret_key_id',
    ]);
    for (let i = 0; i < 2; i++) {
      const { page } = await open(sent.link);
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.text).toContain('Partner sync');
    }
    expect((await call('get', `/clients/${client.clientId}/secrets`, contact.token)).body).toEqual([]);
    expect((await call('get', `/clients/${client.clientId}/handovers`, it_.token)).body).toMatchObject([
      { id: sent.id, status: 'pending' },
    ]);
  });

  it('refuses bad input and writes nothing', async () => {
    const before = await count(`SELECT count(*)::int AS n FROM credential_handovers`);
    const post = (clientId: string, body: Json, token = contact.token) =>
      call('post', `/clients/${clientId}/handovers`, token, body);
    expect((await post(client.clientId, { expiresInHours: 169 })).status).toBe(400);
    expect((await post(client.clientId, { expiresInHours: 0 })).status).toBe(400);
    const crlf = await post(client.clientId, { recipientEmail: 'ops@partner.example\r\nBcc: all@example.com' });
    expect(crlf.status).toBe(400);
    expect(crlf.body.errors).toEqual([
      { field: 'recipientEmail', message: 'recipientEmail must be exactly one plain email address' },
    ]);
    expect((await post(client.clientId, { recipientEmail: 'a@partner.example, b@partner.example' })).status).toBe(400);
    expect((await post(client.clientId, { recipientEmail: 'a@partner.example', secret: 'x' })).status).toBe(400);
    const bare = (await call('post', '/clients', contact.token, { displayName: 'No contact' })).body;
    const none = await post(bare.clientId, {});
    expect([none.status, none.body.code]).toEqual([400, 'handover_no_recipient']);
    await call('post', `/clients/${bare.clientId}/disable`, contact.token);
    const disabled = await post(bare.clientId, { recipientEmail: 'ops@partner.example' });
    expect([disabled.status, disabled.body.code]).toEqual([409, 'handover_client_disabled']);
    expect((await post('6a1f0f55-9a55-4a0c-8a39-4f7d4d3e1c11', {})).status).toBe(404);
    expect((await post(client.clientId, {}, it_.token)).status).toBe(403);
    expect(await count(`SELECT count(*)::int AS n FROM credential_handovers`)).toBe(before);
  });

  it('two concurrent reveals: exactly one creates a secret and gets it; it works; the other gets 410', async () => {
    const sent = await handover(client.clientId, contact.token, { recipientEmail: 'dev@partner.example' });
    const secretsBefore = await count(`SELECT count(*)::int AS n FROM client_secrets`);
    const [a, b] = await Promise.all([open(sent.link), open(sent.link)]);
    const answers = await Promise.all([a.reveal(), b.reveal()]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 410]);
    const winner = answers.find((r) => r.status === 200)!;
    expect(winner.headers['cache-control']).toBe('no-store');
    expect(winner.headers['referrer-policy']).toBe('no-referrer');
    const secret = secretIn(winner.text)!;
    secrets.push(secret);
    expect(await count(`SELECT count(*)::int AS n FROM client_secrets`)).toBe(secretsBefore + 1);
    expect(await tokenStatus(client.clientId, secret, 200)).toBe(200);
    const listed = (await call('get', `/clients/${client.clientId}/handovers`, contact.token)).body.find(
      (h: Json) => h.id === sent.id,
    );
    expect(listed).toMatchObject({
      status: 'revealed',
      revealedFrom: PARTNER,
      revealedAt: expect.any(String),
      secretKeyId: expect.any(String),
    });
    const events = (
      await call('get', `/audit-events?target=${client.clientId}&action=client.handover.revealed`, administrator.token)
    ).body.items;
    expect(events).toHaveLength(1);
    expect(events[0].details).toMatchObject({
      handoverId: sent.id,
      sourceAddress: PARTNER,
      keyId: listed.secretKeyId,
      revealedAt: expect.any(String),
    });
    const [{ page }] = [await open(sent.link)];
    expect(page.status).toBe(410);
  });

  it('revoke: a pending link dies; after the reveal, the secret it created is revoked', async () => {
    const pending = await handover(client.clientId, contact.token, { recipientEmail: 'pending@partner.example' });
    const revoked = await call('post', `/handovers/${pending.id}/revoke`, contact.token);
    expect(revoked.body).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
    expect((await open(pending.link)).page.status).toBe(410);
    expect((await call('post', `/handovers/${pending.id}/revoke`, contact.token)).body.code).toBe(
      'handover_not_revocable',
    );

    const sent = await handover(client.clientId, contact.token, { recipientEmail: 'revealed@partner.example' });
    const secret = secretIn((await (await open(sent.link)).reveal()).text)!;
    secrets.push(secret);
    expect(await tokenStatus(client.clientId, secret, 200)).toBe(200);
    const after = await call('post', `/handovers/${sent.id}/revoke`, contact.token);
    expect(after.body).toMatchObject({ status: 'revoked', revealedAt: expect.any(String) });
    const listed = (await call('get', `/clients/${client.clientId}/secrets`, contact.token)).body.find(
      (s: Json) => s.keyId === after.body.secretKeyId,
    );
    expect(listed.revokedAt).toEqual(expect.any(String));
    expect(await tokenStatus(client.clientId, secret, 401)).toBe(401);
  });

  it('an unrevealed handover expires: the link is dead, no secret was created, the sender is told', async () => {
    const sent = await handover(client.clientId, contact.token, {
      recipientEmail: 'slow@partner.example',
      expiresInHours: 1,
    });
    await dataSource.query(`UPDATE credential_handovers SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      sent.id,
    ]);
    const secretsBefore = await count(`SELECT count(*)::int AS n FROM client_secrets`);
    const visit = await open(sent.link);
    expect(visit.page.status).toBe(410);
    expect(visit.page.text).toContain('no secret was created');
    expect((await visit.reveal()).status).toBe(410);
    expect(await count(`SELECT count(*)::int AS n FROM client_secrets`)).toBe(secretsBefore);
    expect(await admin.get(HandoverSweepService).expireOverdue()).toEqual({ expired: 1, mailed: 1 });
    expect(await admin.get(HandoverSweepService).expireOverdue()).toEqual({ expired: 0, mailed: 0 });
    await admin.get(OutboxDeliveryService).deliverDue();
    const [told] = await sink.waitFor((m) => m.subject.includes('were not picked up'));
    expect(told!.envelopeTo).toEqual([contact.user.email]);
    expect(told!.text).toContain('slow@partner.example');
    const listed = (await call('get', `/clients/${client.clientId}/handovers`, contact.token)).body.find(
      (h: Json) => h.id === sent.id,
    );
    expect(listed).toMatchObject({ status: 'expired', secretKeyId: null, revealedAt: null });
    expect(await count(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'client.handover.expired'`)).toBe(1);
  });

  it('operator clients: only their owner or an Administrator hands over their credentials', async () => {
    const refused = await call('post', `/clients/${administrator.clientId}/handovers`, contact.token, {
      recipientEmail: 'x@example.com',
    });
    expect([refused.status, refused.body.code]).toEqual([403, 'owner_privileged']);
    const own = await call('post', `/clients/${contact.clientId}/handovers`, contact.token, {
      recipientEmail: 'carla@example.com',
    });
    expect(own.status).toBe(201);
    const byAdmin = await call('post', `/clients/${administrator.clientId}/handovers`, administrator.token, {
      recipientEmail: 'admin@example.com',
    });
    expect(byAdmin.status).toBe(201);
    expect((await call('post', `/handovers/${byAdmin.body.id}/revoke`, contact.token)).status).toBe(403);
    expect((await call('post', `/handovers/${byAdmin.body.id}/revoke`, administrator.token)).status).toBe(200);
  });

  it('neither a secret nor a link token reaches a log or the audit trail', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const audit = JSON.stringify(await dataSource.query(`SELECT details FROM audit_events`));
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    for (const value of [...secrets, ...links.map((l) => l.split('/').pop()!)]) {
      expect(logs.text).not.toContain(value);
      expect(audit).not.toContain(value);
    }
    expect(logs.text).toContain('/handover/[redacted]');
  });
});
