import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiService } from '@gatehouse/apis';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { AccessDecisionService } from '@gatehouse/provisioning';
import { AccessRequestService } from '@gatehouse/requests';
import { SigningKeyService } from '@gatehouse/tokens';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { makeCertificate } from './support/client-certificates.js';
import { LogCapture } from './support/log-capture.js';
import { type ConsoleApp, type ConsoleFixtures, type StaffMember, csrfOf, formBody, startConsoleApp } from './support/console.js';

/** The Clients pages over HTTP: the REST use cases, permissions and audit (SECURITY.md 45, 46, 49, 50). */
describe('console: clients', () => {
  let app: ConsoleApp;
  let admin: INestApplication;
  let identity: INestApplication;
  let origin: string;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let carla: StaffMember; // ContactPerson
  let ivan: StaffMember; // ITDepartment
  let audra: StaffMember; // Auditor
  let ordersApi: { id: string; identifier: string };
  const logs = new LogCapture();

  const ageSecondFactor = (userId: string) =>
    db.query(`UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1 AND kind = 'console'`, [userId]);
  const newClient = (displayName: string, contactEmail = 'ops@partner.example') =>
    admin.get(ClientService).create(tenantId, SYSTEM_ACTOR, { displayName, contactEmail });
  const events = (action: string, target: string) =>
    db.query(`SELECT actor_type, actor_id, actor_client_id, details FROM audit_events WHERE action = $1 AND target_id = $2`, [action, target]);
  const tokenRequest = (clientId: string, secret: string) =>
    request(identity.getHttpServer())
      .post(`/${tenantId}/oauth2/v2.0/token`)
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: `${ordersApi.identifier}/.default` });

  beforeAll(async () => {
    app = await startConsoleApp({ logs, config: { logLevel: 'debug' } });
    ({ admin, origin, db, staff, tenantId } = app);
    await db.transaction((em) => admin.get(SigningKeyService).ensureActiveKey(em, tenantId, 'RS256'));
    identity = await createIdentityApp({ config: app.config, logDestination: logs });
    await identity.init();
    const apis = admin.get(ApiService);
    const api = await apis.create(tenantId, SYSTEM_ACTOR, { identifier: 'api://orders', displayName: 'Orders API' });
    await apis.addScope(tenantId, SYSTEM_ACTOR, api.id, { value: 'Orders.Read', description: 'Read orders' });
    await apis.addScope(tenantId, SYSTEM_ACTOR, api.id, { value: 'Orders.Write' });
    ordersApi = api;
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    ivan = await staff.staff(tenantId, ['ITDepartment'], { username: 'ivan' });
    audra = await staff.staff(tenantId, ['Auditor'], { username: 'audra' });
  }, 60_000);

  afterAll(async () => {
    await identity?.close();
    await app?.close();
  });

  it('a contact person creates a client: errors keep the form as typed, the audit names the person', async () => {
    const agent = await staff.signIn(carla);
    const refused = await staff.post(agent, '/console/clients/new', '/console/clients/new', { displayName: 'Orders sync', contactEmail: 'not-an-address' });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/id="contactEmail"[^>]*value="not-an-address"[^>]*aria-invalid="true"/);
    expect(refused.text).toMatch(/id="displayName"[^>]*value="Orders sync"/);
    expect(refused.text).toContain('class="field-error" id="contactEmail-error"');
    const created = await staff.post(agent, '/console/clients/new', '/console/clients/new', { displayName: 'Orders sync', contactEmail: 'ops@partner.example' });
    expect(created.status).toBe(303);
    const clientId = /\/console\/clients\/([0-9a-f-]{36})$/.exec(created.headers.location!)![1]!;
    const page = await agent.get(created.headers.location!).expect(200);
    expect(page.text).toContain('Client Orders sync created.');
    expect(page.text).toMatch(/awaiting scopes<\/span>: the IT department has been told/);
    expect(page.text).toContain(`http://localhost:3000/${tenantId}/oauth2/v2.0/token`);
    expect(page.text).toMatch(/<li><a href="\/console\/clients">Clients<\/a><\/li>\s*<li><span aria-current="page">Orders sync<\/span>/);
    expect(page.text).not.toContain('name="scopes"'); // read only for a contact person
    expect(await events('client.created', clientId)).toEqual([
      expect.objectContaining({ actor_type: 'user', actor_id: carla.id, actor_client_id: null }),
    ]);
  });

  it('refuses a forced URL outside the roles, and a form without its CSRF token, changing nothing', async () => {
    const client = await newClient('Forced');
    const agent = await staff.signIn(audra);
    const page = await agent.get(`/console/clients/${client.clientId}`).expect(200); // Clients.Read
    expect(page.text).not.toContain('New secret');
    const csrf = csrfOf(page.text);
    const forced = (path: string, fields: Record<string, string | string[]> = {}) =>
      agent.post(path).set('Origin', origin).type('form').send(formBody({ _csrf: csrf, ...fields }));
    expect((await agent.get('/console/clients/new')).status).toBe(403);
    expect((await forced('/console/clients/new', { displayName: 'Mallory' })).status).toBe(403);
    expect((await forced(`/console/clients/${client.clientId}/secrets`, {})).status).toBe(403);
    expect((await forced(`/console/clients/${client.clientId}/scopes`, { scopes: [`${ordersApi.identifier}/Orders.Read`] })).status).toBe(403);
    expect((await forced(`/console/clients/${client.clientId}/disable`)).status).toBe(403);
    expect((await forced(`/console/clients/${client.clientId}/handovers`, {})).status).toBe(403);
    const carlaAgent = await staff.signIn(carla);
    const noCsrf = await carlaAgent.post(`/console/clients/${client.clientId}/disable`).set('Origin', origin).type('form').send('');
    expect(noCsrf.status).toBe(403);
    const form = await carlaAgent.get(`/console/clients/${client.clientId}/disable`).expect(200);
    const crossSite = await carlaAgent.post(`/console/clients/${client.clientId}/disable`).set('Origin', 'https://evil.example').type('form')
      .send(formBody({ _csrf: csrfOf(form.text) }));
    expect(crossSite.status).toBe(403);
    expect(await db.query(`SELECT state FROM api_clients WHERE client_id = $1`, [client.clientId])).toEqual([{ state: 'awaiting_scopes' }]);
    expect(await db.query(`SELECT 1 FROM api_clients WHERE display_name = 'Mallory'`)).toEqual([]);
    expect(await db.query(`SELECT 1 FROM client_secrets s JOIN api_clients c ON c.id = s.api_client_id WHERE c.client_id = $1`, [client.clientId])).toEqual([]);
    expect(await db.query(`SELECT 1 FROM client_scope_grants g JOIN api_clients c ON c.id = g.api_client_id WHERE c.client_id = $1`, [client.clientId])).toEqual([]);
  });

  it('IT assigns the first scopes of an approved request’s client: the first handover goes out by itself', async () => {
    const decider = await staff.staff(tenantId, ['ContactPerson']);
    const filed = await admin.get(AccessRequestService).file(tenantId, SYSTEM_ACTOR, {
      requesterName: 'Quinn',
      requesterEmail: 'quinn@partner.example',
      organisation: 'Partner Ltd',
      api: { systemName: 'Billing sync', technicalContactEmail: 'billing-ops@partner.example', purpose: 'Reads orders' },
    });
    await admin.get(AccessDecisionService).approve(tenantId, { type: 'user', userId: decider.id, clientId: null, permissions: ['Requests.Decide', 'Clients.Manage'] }, filed.id, {});
    const [{ client_id: clientId }] = await db.query(`SELECT client_id FROM api_clients WHERE display_name = 'Billing sync'`);
    const agent = await staff.signIn(ivan);
    const nav = await agent.get('/console').expect(200);
    expect(nav.text).toMatch(/href="\/console\/clients"[^>]*><span>Clients<\/span><span class="count"\s*>\d+<span class="visually-hidden"> awaiting scopes/);
    const page = await agent.get(`/console/clients/${clientId}`).expect(200);
    expect(page.text).toContain('assign at least one scope below');
    expect(page.text).toMatch(/<legend>Orders API \(api:\/\/orders\)<\/legend>/);
    const unknown = await staff.post(agent, `/console/clients/${clientId}`, `/console/clients/${clientId}/scopes`, { scopes: ['api://orders/Orders.Gone'] });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('Unknown scopes: api://orders/Orders.Gone');
    expect(await db.query(`SELECT 1 FROM credential_handovers`)).toEqual([]);
    const saved = await staff.post(agent, `/console/clients/${clientId}`, `/console/clients/${clientId}/scopes`, { scopes: ['api://orders/Orders.Read'] });
    expect(saved.status).toBe(303);
    const after = await agent.get(saved.headers.location!);
    expect(after.text).toContain('Billing sync may now request: api://orders/Orders.Read. It is active');
    expect(after.text).toMatch(/value="api:\/\/orders\/Orders.Read"\s+checked/);
    const handovers = await db.query(`SELECT recipient_email, status, access_request_id FROM credential_handovers h JOIN api_clients c ON c.id = h.api_client_id WHERE c.client_id = $1`, [clientId]);
    expect(handovers).toEqual([{ recipient_email: 'billing-ops@partner.example', status: 'pending', access_request_id: filed.id }]);
    expect(await db.query(`SELECT 1 FROM emails WHERE to_address = 'billing-ops@partner.example'`)).toHaveLength(1);
    expect(after.text).toContain('billing-ops@partner.example'); // in the Handovers section
    expect(await events('client.scopes.set', clientId)).toEqual([expect.objectContaining({ actor_id: ivan.id, actor_client_id: null })]);
  });

  it('a new secret needs a fresh second factor, is shown once with the snippet, works at the token endpoint, and is in no other page or audit body', async () => {
    const client = await newClient('Reporting');
    await admin.get(ClientService).setScopes(tenantId, SYSTEM_ACTOR, client.clientId, [`${ordersApi.identifier}/Orders.Read`]);
    const path = `/console/clients/${client.clientId}`;
    const agent = await staff.signIn(carla);
    const invalid = await staff.post(agent, `${path}/secrets/new`, `${path}/secrets`, { displayName: 'production', expiresInDays: '9000' });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toMatch(/id="expiresInDays"[^>]*value="9000"[^>]*aria-invalid="true"/);
    await ageSecondFactor(carla.id);
    const asked = await staff.post(agent, `${path}/secrets/new`, `${path}/secrets`, { displayName: 'production', expiresInDays: '30' });
    expect(asked.text).toContain('Confirm it is you');
    expect(asked.text).toContain('<input type="hidden" name="displayName" value="production" />');
    expect(await db.query(`SELECT 1 FROM client_secrets`)).toHaveLength(0);
    const shown = await agent.post(`${path}/secrets`).set('Origin', origin).type('form')
      .send(formBody({ _csrf: csrfOf(asked.text), displayName: 'production', expiresInDays: '30', _stepup_code: await staff.secondFactor(carla) }));
    expect(shown.status).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.text).toContain('Secret created. Copy it now: it will not be shown again.');
    expect(shown.text).toContain('Leaving or reloading it loses the secret');
    const secret = /<code class="secret" id="client-secret" data-copy="client secret">([^<]+)<\/code>/.exec(shown.text)![1]!;
    expect(secret).toMatch(/^gte_/);
    expect(shown.text).toContain(`--data-urlencode &#39;client_secret=${secret}&#39;`);
    expect(shown.text).toContain(`--data-urlencode &#39;scope=api://orders/.default&#39;`);
    const token = await tokenRequest(client.clientId, secret);
    expect(token.status).toBe(200);
    expect(token.body.access_token).toBeTruthy();
    const detail = await agent.get(path);
    expect(detail.text).not.toContain(secret);
    expect(detail.text).toContain(`${secret.slice(4, 7)}…`); // the hint
    const [created] = await events('client.secret.created', client.clientId);
    expect(created).toMatchObject({ actor_id: carla.id, actor_client_id: null });
    expect(JSON.stringify(await db.query(`SELECT details FROM audit_events`))).not.toContain(secret.slice(4));
    expect(logs.text).toContain(`/console/clients/${client.clientId}/secrets`); // the access log saw the request
    expect(logs.text).not.toContain(secret.slice(4));

    const confirm = await agent.get(`${path}/secrets/${created.details.keyId}/revoke`).expect(200);
    expect(confirm.text).toContain('Clients using this secret will fail at the next token request.');
    expect(confirm.text).toContain('production');
    const revoked = await staff.post(agent, `${path}/secrets/${created.details.keyId}/revoke`, `${path}/secrets/${created.details.keyId}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect((await agent.get(revoked.headers.location!)).text).toContain('Secret revoked');
    expect((await tokenRequest(client.clientId, secret)).status).toBe(401);
    expect(await events('client.secret.revoked', client.clientId)).toEqual([expect.objectContaining({ actor_id: carla.id })]);
  });

  it('certificates: a bad PEM comes back as typed with the reason; a good one is listed and removed after a confirmation', async () => {
    const client = await newClient('Signer');
    const path = `/console/clients/${client.clientId}`;
    const agent = await staff.signIn(carla);
    const bad = await staff.post(agent, `${path}/certificates/new`, `${path}/certificates`, { certificate: 'not a certificate', displayName: 'laptop' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/<textarea[^>]*aria-invalid="true"[^>]*>\s*not a certificate<\/textarea/);
    const certificate = makeCertificate();
    const added = await staff.post(agent, `${path}/certificates/new`, `${path}/certificates`, { certificate: certificate.pem, displayName: 'daemon 2027' });
    expect(added.status).toBe(303);
    const page = await agent.get(path);
    const [row] = await db.query(`SELECT key_id, thumbprint FROM client_certificates`);
    expect(page.text).toContain(row.thumbprint);
    expect(page.text).toContain('daemon 2027');
    const confirm = await agent.get(`${path}/certificates/${row.key_id}/remove`).expect(200);
    expect(confirm.text).toContain('Clients signing with this certificate will fail at the next token request.');
    const removed = await staff.post(agent, `${path}/certificates/${row.key_id}/remove`, `${path}/certificates/${row.key_id}/remove`, {});
    expect(removed.status).toBe(303);
    expect(await db.query(`SELECT 1 FROM client_certificates`)).toEqual([]);
    expect((await events('client.certificate.removed', client.clientId))[0]).toMatchObject({ actor_id: carla.id });
  });

  it('send credentials: the handover is listed as pending and revoked after a confirmation; disable and enable', async () => {
    const client = await newClient('Handed', 'handed-ops@partner.example');
    const path = `/console/clients/${client.clientId}`;
    const agent = await staff.signIn(carla);
    const detail = await agent.get(path);
    expect(detail.text.indexOf('Send credentials')).toBeLessThan(detail.text.indexOf('New secret')); // the first choice
    const wrong = await staff.post(agent, `${path}/handovers/new`, `${path}/handovers`, { recipientEmail: 'a@x.example, b@x.example', expiresInHours: '' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(/id="recipientEmail"[^>]*value="a@x.example, b@x.example"[^>]*aria-invalid="true"/);
    const sent = await staff.post(agent, `${path}/handovers/new`, `${path}/handovers`, { recipientEmail: '', expiresInHours: '24' });
    expect(sent.status).toBe(303);
    const page = await agent.get(path);
    expect(page.text).toContain('Link sent to handed-ops@partner.example');
    const [handover] = await db.query(`SELECT h.id FROM credential_handovers h JOIN api_clients c ON c.id = h.api_client_id WHERE c.client_id = $1`, [client.clientId]);
    expect((await agent.get(`${path}/handovers/${handover.id}/revoke`)).text).toContain('The link stops working');
    const revoked = await staff.post(agent, path, `${path}/handovers/${handover.id}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect((await db.query(`SELECT status FROM credential_handovers WHERE id = $1`, [handover.id]))[0].status).toBe('revoked');
    expect((await events('client.handover.revoked', client.clientId))[0]).toMatchObject({ actor_id: carla.id });

    expect((await agent.get(`${path}/disable`)).text).toContain('Its next token request fails');
    const disabled = await staff.post(agent, `${path}/disable`, `${path}/disable`, {});
    expect((await agent.get(disabled.headers.location!)).text).toContain('Handed is disabled');
    const enabled = await staff.post(agent, path, `${path}/enable`, {});
    expect((await agent.get(enabled.headers.location!)).text).toContain('Handed is enabled and awaits scopes.');
    expect((await events('client.disabled', client.clientId))[0]).toMatchObject({ actor_id: carla.id });
  });

  it("a contact person cannot mint for a staff member's operator client: 403, nothing minted", async () => {
    const owner = await staff.staff(tenantId, ['ITDepartment']);
    const operatorClient = await admin.get(ClientService).create(tenantId, SYSTEM_ACTOR, { displayName: 'Ivan CLI', ownerUserId: owner.id });
    const agent = await staff.signIn(carla);
    const page = await agent.get(`/console/clients/${operatorClient.clientId}`).expect(200);
    expect(page.text).not.toContain('New secret');
    const forced = await staff.post(agent, `/console/clients/${operatorClient.clientId}`, `/console/clients/${operatorClient.clientId}/secrets`, {});
    expect(forced.status).toBe(403);
    expect(await db.query(`SELECT 1 FROM client_secrets s JOIN api_clients c ON c.id = s.api_client_id WHERE c.client_id = $1`, [operatorClient.clientId])).toEqual([]);
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
  });
});
