import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { AccessDecisionService } from '@gatehouse/provisioning';
import { AccessRequestService } from '@gatehouse/requests';
import { type ConsoleFixtures, type StaffMember, csrfOf, formBody } from './support/console.js';
import { CatalogConsole } from './support/console-catalog.js';

/** The Clients pages over HTTP: create, list, scopes, forced URLs and CSRF — the REST use cases, permissions and audit (SECURITY.md 46). */
describe('console: clients', () => {
  const env = new CatalogConsole();
  let admin: INestApplication;
  let origin: string;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let carla: StaffMember; // ContactPerson
  let ivan: StaffMember; // ITDepartment
  let audra: StaffMember; // Auditor
  let ordersApi: { id: string; identifier: string };
  const newClient = (name: string, contact?: string) => env.newClient(name, contact);
  const events = (action: string, target: string) => env.events(action, target);

  beforeAll(async () => {
    await env.start();
    ({ admin, origin, db, staff, tenantId } = env.app);
    ({ carla, ivan, audra, ordersApi } = env);
  }, 60_000);

  afterAll(() => env.stop());

  it('a contact person creates a client: errors keep the form as typed, the audit names the person', async () => {
    const agent = await staff.signIn(carla);
    const refused = await staff.post(agent, '/console/clients/new', '/console/clients/new', {
      displayName: 'Orders sync',
      contactEmail: 'not-an-address',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/id="contactEmail"[^>]*value="not-an-address"[^>]*aria-invalid="true"/);
    expect(refused.text).toMatch(/id="displayName"[^>]*value="Orders sync"/);
    expect(refused.text).toContain('class="field-error" id="contactEmail-error"');
    const created = await staff.post(agent, '/console/clients/new', '/console/clients/new', {
      displayName: 'Orders sync',
      contactEmail: 'ops@partner.example',
    });
    expect(created.status).toBe(303);
    const clientId = /\/console\/clients\/([0-9a-f-]{36})$/.exec(created.headers.location!)![1]!;
    const page = await agent.get(created.headers.location!).expect(200);
    expect(page.text).toContain('Client Orders sync created.');
    expect(page.text).toMatch(/awaiting scopes<\/span>: the IT department has been told/);
    expect(page.text).toContain(`http://localhost:3000/${tenantId}/oauth2/v2.0/token`);
    expect(page.text).toMatch(
      /<li><a href="\/console\/clients">Clients<\/a><\/li>\s*<li><span aria-current="page">Orders sync<\/span>/,
    );
    expect(page.text).not.toContain('name="scopes"'); // read only for a contact person
    expect(page.text).not.toContain('id="history-heading"'); // no Audit.Read, like GET /audit-events
    expect(await events('client.created', clientId)).toEqual([
      expect.objectContaining({ actor_type: 'user', actor_id: carla.id, actor_client_id: null }),
    ]);
  });

  it('refuses a forced URL outside the roles, and a form without its CSRF token, changing nothing', async () => {
    const client = await newClient('Forced');
    const agent = await staff.signIn(audra);
    const page = await agent.get(`/console/clients/${client.clientId}`).expect(200); // Clients.Read
    expect(page.text).not.toContain('New secret');
    expect(page.text).toMatch(
      /<h2 id="history-heading">History<\/h2>[\s\S]*Gatehouse[\s\S]*<code>client.created<\/code>/,
    ); // Audit.Read
    const csrf = csrfOf(page.text);
    const forced = (path: string, fields: Record<string, string | string[]> = {}) =>
      agent
        .post(path)
        .set('Origin', origin)
        .type('form')
        .send(formBody({ _csrf: csrf, ...fields }));
    expect((await agent.get('/console/clients/new')).status).toBe(403);
    expect((await forced('/console/clients/new', { displayName: 'Mallory' })).status).toBe(403);
    expect((await forced(`/console/clients/${client.clientId}/secrets`, {})).status).toBe(403);
    expect(
      (await forced(`/console/clients/${client.clientId}/scopes`, { scopes: [`${ordersApi.identifier}/Orders.Read`] }))
        .status,
    ).toBe(403);
    expect((await forced(`/console/clients/${client.clientId}/disable`)).status).toBe(403);
    expect((await forced(`/console/clients/${client.clientId}/handovers`, {})).status).toBe(403);
    const carlaAgent = await staff.signIn(carla);
    const noCsrf = await carlaAgent
      .post(`/console/clients/${client.clientId}/disable`)
      .set('Origin', origin)
      .type('form')
      .send('');
    expect(noCsrf.status).toBe(403);
    const form = await carlaAgent.get(`/console/clients/${client.clientId}/disable`).expect(200);
    const crossSite = await carlaAgent
      .post(`/console/clients/${client.clientId}/disable`)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send(formBody({ _csrf: csrfOf(form.text) }));
    expect(crossSite.status).toBe(403);
    expect(await db.query(`SELECT state FROM api_clients WHERE client_id = $1`, [client.clientId])).toEqual([
      { state: 'awaiting_scopes' },
    ]);
    expect(await db.query(`SELECT 1 FROM api_clients WHERE display_name = 'Mallory'`)).toEqual([]);
    expect(
      await db.query(
        `SELECT 1 FROM client_secrets s JOIN api_clients c ON c.id = s.api_client_id WHERE c.client_id = $1`,
        [client.clientId],
      ),
    ).toEqual([]);
    expect(
      await db.query(
        `SELECT 1 FROM client_scope_grants g JOIN api_clients c ON c.id = g.api_client_id WHERE c.client_id = $1`,
        [client.clientId],
      ),
    ).toEqual([]);
  });

  it('IT assigns the first scopes of an approved request’s client: the first handover goes out by itself', async () => {
    const decider = await staff.staff(tenantId, ['ContactPerson']);
    const filed = await admin.get(AccessRequestService).file(tenantId, SYSTEM_ACTOR, {
      requesterName: 'Quinn',
      requesterEmail: 'quinn@partner.example',
      organisation: 'Partner Ltd',
      api: {
        systemName: 'Billing sync',
        technicalContactEmail: 'billing-ops@partner.example',
        purpose: 'Reads orders',
      },
    });
    await admin
      .get(AccessDecisionService)
      .approve(
        tenantId,
        { type: 'user', userId: decider.id, clientId: null, permissions: ['Requests.Decide', 'Clients.Manage'] },
        filed.id,
        {},
      );
    const [{ client_id: clientId }] = await db.query(
      `SELECT client_id FROM api_clients WHERE display_name = 'Billing sync'`,
    );
    const agent = await staff.signIn(ivan);
    const nav = await agent.get('/console').expect(200);
    expect(nav.text).toMatch(
      /href="\/console\/clients"[^>]*><span>Clients<\/span><span class="count"\s*>\d+<span class="visually-hidden"> awaiting scopes/,
    );
    const page = await agent.get(`/console/clients/${clientId}`).expect(200);
    expect(page.text).toContain('assign at least one scope below');
    expect(page.text).toMatch(/<legend>Orders API \(api:\/\/orders\)<\/legend>/);
    const unknown = await staff.post(agent, `/console/clients/${clientId}`, `/console/clients/${clientId}/scopes`, {
      scopes: ['api://orders/Orders.Gone'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('Unknown scopes: api://orders/Orders.Gone');
    expect(await db.query(`SELECT 1 FROM credential_handovers`)).toEqual([]);
    const saved = await staff.post(agent, `/console/clients/${clientId}`, `/console/clients/${clientId}/scopes`, {
      scopes: ['api://orders/Orders.Read'],
    });
    expect(saved.status).toBe(303);
    const after = await agent.get(saved.headers.location!);
    expect(after.text).toContain(
      'Billing sync may now request: api://orders/Orders.Read. It is active, and its credentials went out by handover link to billing-ops@partner.example.',
    );
    expect(after.text).toMatch(/value="api:\/\/orders\/Orders.Read"\s+checked/);
    const handovers = await db.query(
      `SELECT recipient_email, status, access_request_id FROM credential_handovers h JOIN api_clients c ON c.id = h.api_client_id WHERE c.client_id = $1`,
      [clientId],
    );
    expect(handovers).toEqual([
      { recipient_email: 'billing-ops@partner.example', status: 'pending', access_request_id: filed.id },
    ]);
    expect(await db.query(`SELECT 1 FROM emails WHERE to_address = 'billing-ops@partner.example'`)).toHaveLength(1);
    expect(after.text).toContain('billing-ops@partner.example'); // in the Handovers section
    expect(await events('client.scopes.set', clientId)).toEqual([
      expect.objectContaining({ actor_id: ivan.id, actor_client_id: null }),
    ]);
  });

  it('lists 50 clients a page, newest first, with Older and Newer, filters kept in the URL', async () => {
    for (let i = 0; i < 55; i += 1) await newClient(`Bulk ${String(i).padStart(2, '0')}`, `bulk${i}@partner.example`);
    const agent = await staff.signIn(carla);
    const first = await agent.get('/console/clients?q=Bulk').expect(200);
    const names = (text: string) => [...text.matchAll(/>(Bulk \d\d)<\/a>/g)].map((m) => m[1]);
    expect(names(first.text)).toHaveLength(50);
    expect(names(first.text)[0]).toBe('Bulk 54');
    expect(first.text).not.toContain('← Newer');
    const older = /<a href="([^"]+)" rel="next">Older/.exec(first.text)![1]!.replaceAll('&amp;', '&');
    expect(older).toMatch(/^\/console\/clients\?q=Bulk&after=/);
    const second = await agent.get(older).expect(200);
    expect(names(second.text)).toEqual(['Bulk 04', 'Bulk 03', 'Bulk 02', 'Bulk 01', 'Bulk 00']);
    const newer = /<a href="([^"]+)" rel="prev">/.exec(second.text)![1]!.replaceAll('&amp;', '&');
    const back = await agent.get(newer).expect(200);
    expect(names(back.text)).toEqual(names(first.text));
    expect(back.text).not.toContain('← Newer');
    const awaiting = await agent.get('/console/clients?state=active').expect(200);
    expect(names(awaiting.text)).toEqual([]);
    const byApi = await agent.get(`/console/clients?api=${ordersApi.id}`).expect(200);
    expect(byApi.text).toContain('Billing sync');
    expect(byApi.text).not.toContain('Bulk 00');
    expect(byApi.text).toMatch(/<option value="[0-9a-f-]{36}"\s+selected/);
    const none = await agent.get('/console/clients?q=nothing-like-this').expect(200);
    expect(none.text).toContain('No client matches these filters.');
    const soon = await newClient('Soon expiring');
    await admin.get(ClientService).issueSecret(tenantId, SYSTEM_ACTOR, soon.clientId, { expiresInDays: 10 });
    const later = await newClient('Later expiring');
    await admin.get(ClientService).issueSecret(tenantId, SYSTEM_ACTOR, later.clientId, { expiresInDays: 200 });
    const expiring = await agent.get('/console/clients?secrets=expiring').expect(200); // the Overview's link
    expect(expiring.text).toContain('>Soon expiring</a>');
    expect(expiring.text).toContain('expires soon');
    expect(expiring.text).not.toContain('>Later expiring</a>');
  });

  it("another tenant's client is not found, read or changed", async () => {
    const [{ id: otherTenant }] = await db.query(
      `INSERT INTO tenants (slug, display_name) VALUES ('other', 'Other') RETURNING id`,
    );
    const theirs = await admin.get(ClientService).create(otherTenant, SYSTEM_ACTOR, { displayName: 'Not yours' });
    const base = '/t/acme/console'; // two tenants now: the tenant is named in the path
    const agent = await staff.signIn(carla, base);
    expect((await agent.get(`${base}/clients/${theirs.clientId}`)).status).toBe(404);
    expect((await agent.get(`${base}/clients?q=Not yours`)).text).not.toContain('>Not yours</a>');
    const disable = await staff.post(agent, `${base}/clients`, `${base}/clients/${theirs.clientId}/disable`, {});
    expect(disable.status).toBe(404);
    expect(await admin.get(ClientService).get(otherTenant, theirs.clientId)).toMatchObject({
      state: 'awaiting_scopes',
    });
  });
});
