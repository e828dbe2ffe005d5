import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivationService, ConsoleActivationService, UserRepository } from '@gatehouse/accounts';
import { InvitationLinkService } from '@gatehouse/invitations';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';

const BURST = 30;
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$Zm9yIGEgYnVyc3Qgb2YgbGlua3Mgb25seSE';

/** The outcomes of a burst, counted: `{ 200: 1, 410: 29 }`, or `{ ok: 1, link_used: 29 }`. */
function tally(outcomes: Array<string | number>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

const outcomeOf = (settled: PromiseSettledResult<unknown>) =>
  settled.status === 'fulfilled' ? 'ok' : String((settled.reason as { code?: string }).code ?? settled.reason);

/**
 * SECURITY 59 (second half, red-team finding L2): a burst of uses of one single-use link holds at
 * most one database connection per request, so it answers once with the result and otherwise
 * with "already used" — never a 500 from a pool that ran dry while each request held a second
 * connection behind the row lock of the first. The identity app's pool has 10 connections;
 * each burst is three times that.
 */
describe('bursts on one single-use link', () => {
  const apps = new AccessApps();
  let contact: OperatorFixture;
  let clientId: string;

  beforeAll(async () => {
    await apps.start({ trustProxy: ['loopback'] });
    contact = await apps.fixtures.operator(apps.tenant, ['ContactPerson']);
    const it_ = await apps.fixtures.operator(apps.tenant, ['ITDepartment']);
    const api = await apps.call('post', '/apis', it_.token, { identifier: 'api://orders', displayName: 'Orders' });
    await apps.call('post', `/apis/${api.body.id}/scopes`, it_.token, { value: 'Orders.Read' });
    clientId = (await apps.call('post', '/clients', contact.token, { displayName: 'Burst sync' })).body.clientId;
    await apps.call('put', `/clients/${clientId}/scopes`, it_.token, { scopes: ['api://orders/Orders.Read'] });
  }, 60_000);

  afterAll(() => apps.stop());

  it(`${BURST} concurrent Reveal POSTs: one 200, the rest 410, no 500; the Web UI keeps answering meanwhile`, async () => {
    const created = await apps.call('post', `/clients/${clientId}/handovers`, contact.token, { recipientEmail: 'ops@burst.example' });
    expect(created.status).toBe(201);
    const link = apps.linkIn(await apps.mailTo('ops@burst.example', /credentials/), 'handover').replace(apps.publicUrl, '');
    const visits = await Promise.all(Array.from({ length: BURST }, () => apps.visit(link)));
    const secretsBefore = await apps.count('SELECT count(*)::int AS n FROM client_secrets');
    const [reveals, pages] = await Promise.all([
      Promise.all(visits.map((visit) => visit.post())),
      Promise.all(Array.from({ length: 5 }, () => request(apps.identity.getHttpServer()).get('/login'))),
    ]);
    expect(tally(reveals.map((r) => r.status))).toEqual({ 200: 1, 410: BURST - 1 });
    expect(pages.map((page) => page.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await apps.count('SELECT count(*)::int AS n FROM client_secrets')).toBe(secretsBefore + 1);
    expect(reveals.find((r) => r.status === 200)!.text.replace(/<wbr>/g, '')).toContain('api://orders/.default'); // values break at their joints
  });

  it(`${BURST} concurrent activations of one link: one sets the password, the rest find it used`, async () => {
    await apps.call('post', '/users', contact.token, {
      username: 'burst-activation',
      email: 'activation@burst.example',
      displayName: 'Burst Activation',
      password: 'activation-link',
    });
    const link = apps.linkIn(await apps.mailTo('activation@burst.example', /./), 'activate');
    const token = link.split('/').pop()!;
    const activation = apps.identity.get(ActivationService);
    const settled = await Promise.allSettled(
      Array.from({ length: BURST }, () => activation.completeActivation(apps.tenant.tenantId, token, PASSWORD_HASH)),
    );
    expect(tally(settled.map(outcomeOf))).toEqual({ ok: 1, account_link_used: BURST - 1 });
  });

  it(`${BURST} concurrent console activations of one link: one sets the password, the rest are refused`, async () => {
    const staff = await apps.call('post', '/users', contact.token, {
      username: 'burst-console',
      email: 'console@burst.example',
      displayName: 'Burst Console',
    });
    const user = (await apps.admin.get(UserRepository).findById(apps.tenant.tenantId, staff.body.id))!;
    const { token } = await apps.dataSource.transaction((em) => apps.admin.get(ConsoleActivationService).issue(em, user));
    const console_ = apps.admin.get(ConsoleActivationService);
    const settled = await Promise.allSettled(
      Array.from({ length: BURST }, () => console_.complete(apps.tenant.tenantId, token, PASSWORD_HASH)),
    );
    expect(tally(settled.map(outcomeOf))).toEqual({ ok: 1, account_link_used: BURST - 1 });
  });

  it(`${BURST} concurrent accepts of one invitation: one opens the section, the rest find it accepted`, async () => {
    await apps.call('post', '/doc-sections', contact.token, { slug: 'burst-guide', title: 'Burst guide', body: '# Hi' });
    const invited = await apps.call('post', '/users', contact.token, {
      username: 'burst-reader',
      email: 'reader@burst.example',
      displayName: 'Burst Reader',
      password: 'generate',
    });
    await apps.call('post', '/invitations', contact.token, { userId: invited.body.id, sections: ['burst-guide'] });
    const link = apps.linkIn(await apps.mailTo('reader@burst.example', /burst-guide|Burst guide|invit/i), 'invitations');
    const token = link.split('/').pop()!;
    const links = apps.identity.get(InvitationLinkService);
    const settled = await Promise.allSettled(
      Array.from({ length: BURST }, () => links.accept(apps.tenant.tenantId, invited.body.id, token)),
    );
    expect(tally(settled.map(outcomeOf))).toEqual({ ok: 1, invitation_already_accepted: BURST - 1 });
  });

  it('left no pool timeout and no 500 in the log', () => {
    expect(apps.logs.text).not.toMatch(/timeout exceeded when trying to connect|"statusCode":500/);
  });
});
