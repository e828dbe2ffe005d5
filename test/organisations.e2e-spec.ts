import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';
import { WEB_PASSWORD, WebClient } from './support/web-client.js';
import { hashPassword } from '@gatehouse/accounts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Partner organisations through the admin API: creating and naming them, belonging to one, an
 * approval that picks or creates one, and offboarding — no token, login, invitation or handover
 * link of the organisation works afterwards — reversed exactly by restore.
 */
describe('partner organisations: offboarding and restore', () => {
  const apps = new AccessApps();
  let web: WebClient;
  let administrator: OperatorFixture;
  let contact: OperatorFixture;
  let it_: OperatorFixture;
  let auditor: OperatorFixture;
  let acme: Json;
  const call = (method: 'get' | 'post' | 'put' | 'patch', path: string, token: string, body?: unknown) => apps.call(method, path, token, body);
  const rows = () => apps.count(`SELECT count(*)::int AS n FROM organisations`);
  const events = (action: string) => apps.count(`SELECT count(*)::int AS n FROM audit_events WHERE action = $1`, [action]);

  /** A client of the organisation (or none) with Orders.Read and a secret; returns it with its secret. */
  async function client(displayName: string, organisationId: string | null) {
    const created = await call('post', '/clients', contact.token, { displayName, contactEmail: 'ops@acme.example', ...(organisationId ? { organisationId } : {}) });
    expect(created.status).toBe(201);
    await call('put', `/clients/${created.body.clientId}/scopes`, it_.token, { scopes: ['api://orders/Orders.Read'] });
    const secret = await call('post', `/clients/${created.body.clientId}/secrets`, administrator.token, {});
    return { ...created.body, secret: secret.body.secretText as string } as Json;
  }

  /** The token endpoint's answer once it is `expected` (replicas hear of changes through NOTIFY), or after 2 s. */
  async function tokenStatus(c: Json, expected: number) {
    const deadline = Date.now() + 2000;
    for (;;) {
      const res = await fetch(`${apps.publicUrl}/${apps.tenant.tenantId}/oauth2/v2.0/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.secret, scope: 'api://orders/.default' }),
      });
      if (res.status === expected || Date.now() > deadline) return res.status;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** A person of the organisation with a known password. */
  async function person(username: string, organisationId: string) {
    const created = await call('post', '/users', contact.token, { username, email: `${username}@acme.example`, displayName: `${username} Acme`, organisationId });
    expect([created.status, created.body.organisationId]).toEqual([201, organisationId]);
    await apps.dataSource.query(`UPDATE users SET password_hash = $2, must_change_password = false WHERE id = $1`, [created.body.id, await hashPassword(WEB_PASSWORD)]);
    return created.body as Json;
  }

  beforeAll(async () => {
    await apps.start();
    web = new WebClient(apps.identity, apps.publicUrl, apps.tenant.tenantId);
    administrator = await apps.fixtures.operator(apps.tenant, ['Administrator']);
    contact = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'carla');
    it_ = await apps.fixtures.operator(apps.tenant, ['ITDepartment']);
    auditor = await apps.fixtures.operator(apps.tenant, ['Auditor']);
    const api = await call('post', '/apis', it_.token, { identifier: 'api://orders', displayName: 'Orders' });
    await call('post', `/apis/${api.body.id}/scopes`, it_.token, { value: 'Orders.Read' });
    expect((await call('post', '/doc-sections', contact.token, { slug: 'api-guide', title: 'API guide', body: 'x' })).status).toBe(201);
    acme = (await call('post', '/organisations', contact.token, { name: '  Acme Logistics  ' })).body;
  }, 60_000);

  afterAll(() => apps.stop());

  it('creates, lists, finds and renames organisations; names are unique in any case', async () => {
    expect(acme).toMatchObject({ name: 'Acme Logistics', state: 'active', offboardedAt: null, offboarding: null });
    const taken = await call('post', '/organisations', contact.token, { name: 'ACME logistics' });
    expect([taken.status, taken.body.code, taken.body.errors[0].field]).toEqual([409, 'organisation_name_taken', 'name']);
    const globex = await call('post', '/organisations', administrator.token, { name: 'Globex' });
    expect(globex.status).toBe(201);
    const page = await call('get', '/organisations?limit=1', auditor.token);
    expect([page.status, page.body.items.length, typeof page.body.nextCursor]).toEqual([200, 1, 'string']);
    const next = await call('get', `/organisations?limit=1&cursor=${page.body.nextCursor}`, auditor.token);
    expect([...page.body.items, ...next.body.items].map((o: Json) => o.name).sort()).toEqual(['Acme Logistics', 'Globex']);
    expect((await call('get', '/organisations?search=LOBE', contact.token)).body.items.map((o: Json) => o.name)).toEqual(['Globex']);
    const renamed = await call('patch', `/organisations/${globex.body.id}`, contact.token, { name: 'Globex Corp' });
    expect([renamed.status, renamed.body.name]).toEqual([200, 'Globex Corp']);
    expect(await events('organisation.updated')).toBe(1);
    expect((await call('get', `/organisations/${globex.body.id}`, it_.token)).status).toBe(403);
    expect((await call('post', '/organisations', auditor.token, { name: 'Nope' })).status).toBe(403);
    expect((await call('get', '/organisations/00000000-0000-4000-8000-000000000000', contact.token)).status).toBe(404);
  });

  it('refuses an empty, blank or 10,000-character name, an unknown field or organisation, and writes nothing', async () => {
    const before = [await rows(), await events('organisation.created'), await events('organisation.updated')];
    for (const name of ['', '   ', 'x'.repeat(10_000), 'y'.repeat(201)]) {
      const created = await call('post', '/organisations', contact.token, { name });
      expect([created.status, created.body.errors?.[0]?.field], JSON.stringify(name.slice(0, 5))).toEqual([400, 'name']);
      const patched = await call('patch', `/organisations/${acme.id}`, contact.token, { name });
      expect([patched.status, patched.body.errors?.[0]?.field]).toEqual([400, 'name']);
    }
    expect((await call('post', '/organisations', contact.token, {})).body.errors[0].field).toBe('name');
    expect((await call('post', '/organisations', contact.token, { name: 'A', state: 'offboarded' })).status).toBe(400);
    const stray = await call('post', '/users', contact.token, { username: 'stray', email: 'stray@acme.example', displayName: 'Stray', organisationId: '00000000-0000-4000-8000-000000000000' });
    expect([stray.status, stray.body.errors[0].field]).toEqual([400, 'organisationId']);
    const notUuid = await call('post', '/clients', contact.token, { displayName: 'Stray', organisationId: 'acme' });
    expect([notUuid.status, notUuid.body.errors[0].field]).toEqual([400, 'organisationId']);
    expect([await rows(), await events('organisation.created'), await events('organisation.updated')]).toEqual(before);
    expect(await apps.count(`SELECT count(*)::int AS n FROM users WHERE username = 'stray'`)).toBe(0);
    expect((await call('get', `/organisations/${acme.id}`, contact.token)).body.name).toBe('Acme Logistics');
  });

  it("approval puts the requester into the organisation they named (any case), or a new one", async () => {
    const filed = (email: string, organisation: string) => ({
      requesterName: 'Pat Partner',
      requesterEmail: email,
      organisation,
      account: { documentation: 'The API guide', reason: 'I build the integration.' },
      api: { systemName: `Sync ${email}`, technicalContactEmail: 'ops@acme.example', purpose: 'Reads orders.' },
    });
    const first = await call('post', '/access-requests', contact.token, filed('pat@acme.example', 'ACME LOGISTICS'));
    const approved = await call('post', `/access-requests/${first.body.id}/approve`, contact.token, {});
    expect([approved.status, approved.body.organisationId]).toEqual([200, acme.id]);
    const user = await call('get', `/users/${approved.body.userId}`, contact.token);
    expect(user.body.organisationId).toBe(acme.id);
    const second = await call('post', '/access-requests', contact.token, filed('kim@initech.example', 'Initech'));
    const made = await call('post', `/access-requests/${second.body.id}/approve`, contact.token, {});
    const initech = await call('get', `/organisations/${made.body.organisationId}`, contact.token);
    expect(initech.body).toMatchObject({ name: 'Initech', state: 'active', counts: { people: 1, clients: 1, requests: 1 } });
    expect(initech.body.requests[0]).toMatchObject({ id: second.body.id, requesterEmail: 'kim@initech.example' });
  });

  it('offboarding leaves no way in — tokens, logins, invitations, handover links — once; restore brings back exactly what it took', async () => {
    const working = await client('Acme sync', acme.id);
    const disabledBefore = await client('Acme old sync', acme.id);
    await call('post', `/clients/${disabledBefore.clientId}/disable`, contact.token);
    const outsider = await client('Other sync', null);
    const moved = await call('put', `/clients/${outsider.clientId}/organisation`, contact.token, { organisationId: acme.id });
    expect(moved.body.organisationId).toBe(acme.id);
    await call('put', `/clients/${outsider.clientId}/organisation`, contact.token, { organisationId: null });
    const pat = await person('pat-acme', acme.id);
    const invited = await call('post', '/users', contact.token, { username: 'ivy-acme', email: 'ivy@acme.example', displayName: 'Ivy Acme', organisationId: acme.id });
    await call('post', '/invitations', contact.token, { userId: invited.body.id, sections: ['api-guide'] });
    const invitationLink = new URL(apps.linkIn(await apps.mailTo('ivy@acme.example', /invit/i), 'invitations')).pathname;
    await call('post', `/clients/${working.clientId}/handovers`, administrator.token, {});
    const handoverLink = new URL(apps.linkIn(await apps.mailTo('ops@acme.example', /credentials for Acme sync/), 'handover')).pathname;
    const session = await web.login('pat-acme');
    expect(session.res.status).toBe(303);
    expect(await tokenStatus(working, 200)).toBe(200);

    const offboarded = await call('post', `/organisations/${acme.id}/offboard`, contact.token);
    expect(offboarded.status).toBe(200);
    expect(offboarded.body).toMatchObject({ state: 'offboarded', offboardedByUserId: contact.user.id });
    expect(offboarded.body.offboarding).toMatchObject({ invitationsRevoked: 1, handoversRevoked: 1, sessionsEnded: 1 });
    const clientsOf = `SELECT count(*)::int AS n FROM api_clients WHERE organisation_id = $1 AND client_id <> $2`;
    expect(offboarded.body.offboarding.clientsDisabled, 'all but the one disabled before').toBe(await apps.count(clientsOf, [acme.id, disabledBefore.clientId]));
    expect(offboarded.body.offboarding.usersDisabled).toBe(await apps.count(`SELECT count(*)::int AS n FROM users WHERE organisation_id = $1`, [acme.id]));
    const again = await call('post', `/organisations/${acme.id}/offboard`, contact.token);
    expect([again.status, again.body.offboardedAt]).toEqual([200, offboarded.body.offboardedAt]);
    expect(await events('organisation.offboarded')).toBe(1);
    const told = await apps.mailTo(contact.user.email, /Organisation offboarded: Acme Logistics/);
    expect(told.text).toContain('pending invitations');

    expect(await tokenStatus(working, 400), "Entra's 400 unauthorized_client: application disabled").toBe(400);
    expect(await tokenStatus(outsider, 200)).toBe(200);
    expect((await web.login('pat-acme')).res.status).not.toBe(303);
    expect(await web.alive(session.agent)).toBe(false);
    expect((await apps.visit(invitationLink)).page.status).toBe(410);
    expect((await apps.visit(handoverLink)).page.status).toBe(410);
    const joining = await call('post', '/users', contact.token, { username: 'late', email: 'late@acme.example', displayName: 'Late', organisationId: acme.id });
    expect([joining.status, joining.body.code]).toEqual([409, 'organisation_offboarded']);
    const detail = (await call('get', `/organisations/${acme.id}`, auditor.token)).body;
    expect(detail.people.find((p: Json) => p.id === pat.id).status).toBe('disabled');
    expect(detail.handovers[0]).toMatchObject({ clientId: working.clientId, status: 'revoked' });

    const restored = await call('post', `/organisations/${acme.id}/restore`, contact.token);
    expect([restored.status, restored.body.state, restored.body.offboarding]).toEqual([200, 'active', null]);
    expect((await call('post', `/organisations/${acme.id}/restore`, contact.token)).status).toBe(200);
    expect(await events('organisation.restored')).toBe(1);
    expect(await tokenStatus(working, 200)).toBe(200);
    expect((await call('get', `/clients/${disabledBefore.clientId}`, contact.token)).body.state).toBe('disabled');
    expect(await tokenStatus(disabledBefore, 400)).toBe(400);
    expect((await web.login('pat-acme')).res.status).toBe(303);
    expect((await apps.visit(invitationLink)).page.status).toBe(200);
    expect((await apps.visit(handoverLink)).page.status).toBe(200);
    const audit = (await call('get', `/audit-events?action=organisation.offboarded`, auditor.token)).body.items[0];
    expect(audit.details).toMatchObject({ name: 'Acme Logistics', sessionsEnded: 1 });
    expect(JSON.stringify(audit)).not.toContain(working.secret);
  }, 90_000);

  it('a contact person cannot offboard an organisation that holds staff; an Administrator can', async () => {
    const staffed = (await call('post', '/organisations', contact.token, { name: 'Staffed Partner' })).body;
    await call('patch', `/users/${it_.user.id}`, administrator.token, { organisationId: staffed.id });
    const refused = await call('post', `/organisations/${staffed.id}/offboard`, contact.token);
    expect([refused.status, refused.body.code]).toEqual([403, 'organisation_holds_staff']);
    expect((await call('get', `/organisations/${staffed.id}`, contact.token)).body.state).toBe('active');
    expect((await call('post', `/organisations/${staffed.id}/offboard`, administrator.token)).body.state).toBe('offboarded');
    expect((await call('post', `/organisations/${staffed.id}/restore`, administrator.token)).body.state).toBe('active');
  });
});
