import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandoverSweepService } from '@gatehouse/handovers';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const PARTNER = '192.0.2.33';

/** One-time credential handovers through the admin API and their link, with every refusal. */
describe('credential handovers', () => {
  const apps = new AccessApps();
  let administrator: OperatorFixture;
  let contact: OperatorFixture;
  let it_: OperatorFixture;
  let client: Json;
  const secrets: string[] = [];
  const links: string[] = [];

  const call = (method: 'get' | 'post' | 'put', path: string, token: string, body?: unknown) =>
    apps.call(method, path, token, body);
  const count = (table: string) => apps.count(`SELECT count(*)::int AS n FROM ${table}`);
  const open = (link: string) => apps.visit(link, PARTNER);
  const secretIn = (html: string) => /id="client-secret">([^<]+)</.exec(html)?.[1];
  const listed = async (id: string) =>
    (await call('get', `/clients/${client.clientId}/handovers`, contact.token)).body.find((h: Json) => h.id === id);

  /** Creates a handover and returns it with the path of its link, read from the mail. */
  async function handover(clientId: string, token: string, body: Json = {}) {
    const created = await call('post', `/clients/${clientId}/handovers`, token, body);
    expect(created.status).toBe(201);
    const [mail] = (await apps.deliver()).filter((m) => m.envelopeTo[0] === created.body.recipientEmail);
    const link = /\/handover\/[A-Za-z0-9_-]+/.exec(mail!.text)![0];
    expect(JSON.stringify(created.body)).not.toContain(link.split('/').pop()!);
    links.push(link);
    return { ...created.body, link } as Json;
  }

  /**
   * The token endpoint's answer for these credentials once it is `expected`, or after 2 s: replicas
   * hear of a new or revoked secret through NOTIFY, a few milliseconds after the commit.
   */
  async function tokenStatus(secret: string, expected: number) {
    const deadline = Date.now() + 2000;
    for (;;) {
      const res = await fetch(`${apps.publicUrl}/${apps.tenant.tenantId}/oauth2/v2.0/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: secret,
          scope: 'api://orders/.default',
        }),
      });
      if (res.status === expected || Date.now() > deadline) return res.status;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeAll(async () => {
    await apps.start({ trustProxy: ['loopback'] });
    administrator = await apps.fixtures.operator(apps.tenant, ['Administrator']);
    contact = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'carla');
    it_ = await apps.fixtures.operator(apps.tenant, ['ITDepartment']);
    const api = await call('post', '/apis', it_.token, { identifier: 'api://orders', displayName: 'Orders' });
    await call('post', `/apis/${api.body.id}/scopes`, it_.token, { value: 'Orders.Read' });
    const created = { displayName: 'Partner sync', contactEmail: 'ops@partner.example' };
    client = (await call('post', '/clients', contact.token, created)).body;
    await call('put', `/clients/${client.clientId}/scopes`, it_.token, { scopes: ['api://orders/Orders.Read'] });
  }, 60_000);

  afterAll(() => apps.stop());

  it("mails a one-time link to the client's contact, valid 72 hours; nothing secret exists until the reveal", async () => {
    const sent = await handover(client.clientId, contact.token);
    expect(sent).toMatchObject({
      status: 'pending',
      recipientEmail: 'ops@partner.example',
      createdByUserId: contact.user.id,
    });
    expect(Math.abs(new Date(sent.expiresAt).getTime() - Date.now() - 72 * 3_600_000)).toBeLessThan(60_000);
    const [mail] = apps.sink.messages.filter((m) => m.envelopeTo[0] === 'ops@partner.example');
    expect(mail!.subject).toBe('default: credentials for Partner sync');
    const columns: Array<{ column_name: string }> = await apps.dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'credential_handovers'`,
    );
    expect(columns.map((c) => c.column_name).filter((c) => /secret|cipher|sealed|value/.test(c))).toEqual([
      'secret_key_id',
    ]);
    for (let i = 0; i < 2; i++) {
      const { page } = await open(sent.link);
      expect([page.status, page.headers['cache-control'], page.headers['referrer-policy']]).toEqual([
        200,
        'no-store',
        'no-referrer',
      ]);
      expect(page.text).toContain('Partner sync');
    }
    expect((await call('get', `/clients/${client.clientId}/secrets`, contact.token)).body).toEqual([]);
    expect((await call('get', `/clients/${client.clientId}/handovers`, it_.token)).body).toMatchObject([
      { id: sent.id, status: 'pending' },
    ]);
  });

  it('refuses bad input and writes nothing', async () => {
    const before = await count('credential_handovers');
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
    expect(await count('credential_handovers')).toBe(before);
  });

  it('two concurrent reveals: exactly one creates a secret and gets it; it works; the other gets 410', async () => {
    const sent = await handover(client.clientId, contact.token, { recipientEmail: 'dev@partner.example' });
    const secretsBefore = await count('client_secrets');
    const [a, b] = await Promise.all([open(sent.link), open(sent.link)]);
    const answers = await Promise.all([a.post(), b.post()]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 410]);
    const winner = answers.find((r) => r.status === 200)!;
    expect([winner.headers['cache-control'], winner.headers['referrer-policy']]).toEqual(['no-store', 'no-referrer']);
    const secret = secretIn(winner.text)!;
    secrets.push(secret);
    expect(await count('client_secrets')).toBe(secretsBefore + 1);
    expect(await tokenStatus(secret, 200)).toBe(200);
    const after = await listed(sent.id);
    expect(after).toMatchObject({ status: 'revealed', revealedFrom: PARTNER, revealedAt: expect.any(String) });
    const path = `/audit-events?target=${client.clientId}&action=client.handover.revealed`;
    const events = (await call('get', path, administrator.token)).body.items;
    expect(events).toHaveLength(1);
    expect(events[0].details).toMatchObject({ handoverId: sent.id, sourceAddress: PARTNER, keyId: after.secretKeyId });
    expect((await open(sent.link)).page.status).toBe(410);
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
    const secret = secretIn((await (await open(sent.link)).post()).text)!;
    secrets.push(secret);
    expect(await tokenStatus(secret, 200)).toBe(200);
    const after = await call('post', `/handovers/${sent.id}/revoke`, contact.token);
    expect(after.body).toMatchObject({ status: 'revoked', revealedAt: expect.any(String) });
    const list = (await call('get', `/clients/${client.clientId}/secrets`, contact.token)).body;
    expect(list.find((s: Json) => s.keyId === after.body.secretKeyId).revokedAt).toEqual(expect.any(String));
    expect(await tokenStatus(secret, 401)).toBe(401);
  });

  it('an unrevealed handover expires: the link is dead, no secret was created, the sender is told', async () => {
    const sent = await handover(client.clientId, contact.token, {
      recipientEmail: 'slow@partner.example',
      expiresInHours: 1,
    });
    await apps.dataSource.query(
      `UPDATE credential_handovers SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [sent.id],
    );
    const secretsBefore = await count('client_secrets');
    const visit = await open(sent.link);
    expect(visit.page.status).toBe(410);
    expect(visit.page.text).toContain('no secret was created');
    expect((await visit.post()).status).toBe(410);
    expect(await count('client_secrets')).toBe(secretsBefore);
    expect(await apps.admin.get(HandoverSweepService).expireOverdue()).toEqual({ expired: 1, mailed: 1 });
    expect(await apps.admin.get(HandoverSweepService).expireOverdue()).toEqual({ expired: 0, mailed: 0 });
    const [told] = (await apps.deliver()).filter((m) => m.subject.includes('were not picked up'));
    expect(told!.envelopeTo).toEqual([contact.user.email]);
    expect(told!.text).toContain('slow@partner.example');
    expect(await listed(sent.id)).toMatchObject({ status: 'expired', secretKeyId: null, revealedAt: null });
    expect(
      await apps.count(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'client.handover.expired'`),
    ).toBe(1);
  });

  it('the handover that went out by itself tells the approver when it expires unrevealed', async () => {
    const approver = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'anna');
    const api = { systemName: 'Late sync', technicalContactEmail: 'late@partner.example', purpose: 'Reads orders' };
    const filed = { requesterName: 'Lee', requesterEmail: 'lee@partner.example', organisation: 'Partner Ltd', api };
    const { body } = await call('post', '/access-requests', contact.token, filed);
    const approved = (await call('post', `/access-requests/${body.id}/approve`, approver.token, {})).body;
    await call('put', `/clients/${approved.clientId}/scopes`, it_.token, { scopes: ['api://orders/Orders.Read'] });
    await apps.dataSource.query(
      `UPDATE credential_handovers SET expires_at = now() - interval '1 second' WHERE access_request_id = $1`,
      [body.id],
    );
    await apps.deliver();
    expect(await apps.admin.get(HandoverSweepService).expireOverdue()).toEqual({ expired: 1, mailed: 1 });
    const [told] = (await apps.deliver()).filter((m) => m.subject.includes('Late sync were not picked up'));
    expect(told!.envelopeTo).toEqual([approver.user.email]);
    expect((await call('get', `/access-requests/${body.id}`, contact.token)).body.status).toBe('approved');
  });

  it('operator clients: only their owner or an Administrator hands over their credentials', async () => {
    const to = { recipientEmail: 'x@example.com' };
    const refused = await call('post', `/clients/${administrator.clientId}/handovers`, contact.token, to);
    expect([refused.status, refused.body.code]).toEqual([403, 'owner_privileged']);
    expect((await call('post', `/clients/${contact.clientId}/handovers`, contact.token, to)).status).toBe(201);
    const byAdmin = await call('post', `/clients/${administrator.clientId}/handovers`, administrator.token, to);
    expect(byAdmin.status).toBe(201);
    expect((await call('post', `/handovers/${byAdmin.body.id}/revoke`, contact.token)).status).toBe(403);
    expect((await call('post', `/handovers/${byAdmin.body.id}/revoke`, administrator.token)).status).toBe(200);
  });

  it('neither a secret nor a link token reaches a log or the audit trail', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const audit = JSON.stringify(await apps.dataSource.query(`SELECT details FROM audit_events`));
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    for (const value of [...secrets, ...links.map((l) => l.split('/').pop()!)]) {
      expect(apps.logs.text).not.toContain(value);
      expect(audit).not.toContain(value);
    }
    expect(apps.logs.text).toContain('/handover/[redacted]');
  });
});
