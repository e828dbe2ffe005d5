import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import {
  type ConsoleApp,
  type ConsoleFixtures,
  type StaffMember,
  csrfOf,
  formBody,
  startConsoleApp,
} from './support/console.js';

/** APIs & scopes over HTTP: ApiService's use cases with the permissions of `/admin/v1/apis` (SECURITY.md 46). */
describe('console: APIs and scopes', () => {
  let app: ConsoleApp;
  let admin: INestApplication;
  let origin: string;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let ivan: StaffMember; // ITDepartment
  let carla: StaffMember; // ContactPerson

  const apiEvents = (action: string) =>
    db.query(`SELECT actor_type, actor_id, actor_client_id, details FROM audit_events WHERE action = $1`, [action]);

  beforeAll(async () => {
    app = await startConsoleApp();
    ({ admin, origin, db, staff, tenantId } = app);
    ivan = await staff.staff(tenantId, ['ITDepartment'], { username: 'ivan' });
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('IT creates an API: errors beside the field with the form as typed, then the API with token version 1, audited as the person', async () => {
    const agent = await staff.signIn(ivan);
    const createApi = (fields: Record<string, string>) =>
      staff.post(agent, '/console/apis/new', '/console/apis/new', fields);
    const list = await agent.get('/console/apis').expect(200);
    expect(list.text).toContain('No APIs yet. Create one with &quot;New API&quot;');
    expect(list.text).toContain('href="/console/apis/new"');
    const bad = await createApi({
      displayName: 'Orders API',
      identifier: 'orders',
      accessTokenVersion: '1',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="identifier"[^>]*value="orders"[^>]*aria-invalid="true"/);
    expect(bad.text).toContain('Identifier must be an api://… or https://… URI.');
    expect(bad.text).toMatch(/<option value="1"\s+selected/);
    const reserved = await createApi({
      displayName: 'Mine',
      identifier: 'api://gatehouse-admin',
      accessTokenVersion: '2',
    });
    expect(reserved.status).toBe(400);
    expect(reserved.text).toContain('api://gatehouse-admin is reserved.');
    const created = await createApi({
      displayName: 'Orders API',
      identifier: 'api://orders',
      accessTokenVersion: '1',
    });
    expect(created.status).toBe(303);
    const page = await agent.get(created.headers.location!).expect(200);
    expect(page.text).toContain('Orders API created.');
    expect(page.text).toContain('v1 (aud = identifier URI)');
    expect(page.text).toMatch(
      /<li><a href="\/console\/apis">APIs &amp; scopes<\/a><\/li>\s*<li><span aria-current="page">Orders API<\/span>/,
    );
    const taken = await createApi({
      displayName: 'Again',
      identifier: 'api://orders',
      accessTokenVersion: '2',
    });
    expect(taken.text).toContain('An API with identifier api://orders exists already.');
    const [event] = await apiEvents('api.created');
    expect(event).toMatchObject({
      actor_type: 'user',
      actor_id: ivan.id,
      actor_client_id: null,
      details: { identifier: 'api://orders' },
    });
    expect(await db.query(`SELECT access_token_version AS v FROM apis WHERE identifier = 'api://orders'`)).toEqual([
      { v: 1 },
    ]);
  });

  it('IT adds scopes: a bad value comes back as typed; the scope is listed and audited', async () => {
    const agent = await staff.signIn(ivan);
    const [{ id }] = await db.query(`SELECT id FROM apis WHERE identifier = 'api://orders'`);
    const bad = await staff.post(agent, `/console/apis/${id}`, `/console/apis/${id}/scopes`, {
      value: 'Orders Read',
      description: 'Read orders',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="value"[^>]*value="Orders Read"[^>]*aria-invalid="true"/);
    expect(bad.text).toMatch(/id="description"[^>]*value="Read orders"/);
    const added = await staff.post(agent, `/console/apis/${id}`, `/console/apis/${id}/scopes`, {
      value: 'Orders.Read',
      description: 'Read orders',
    });
    expect(added.status).toBe(303);
    const page = await agent.get(added.headers.location!);
    expect(page.text).toContain('Scope Orders.Read added.');
    expect(page.text).toContain('<code>api://orders/Orders.Read</code>');
    const twice = await staff.post(agent, `/console/apis/${id}`, `/console/apis/${id}/scopes`, {
      value: 'Orders.Read',
    });
    expect(twice.text).toContain('The API has a scope Orders.Read already.');
    expect(await apiEvents('api.scope.created')).toEqual([
      expect.objectContaining({ actor_id: ivan.id, actor_client_id: null }),
    ]);
  });

  it('a contact person reads APIs but cannot create them or add scopes: 403, nothing changed; a form without CSRF is refused', async () => {
    const agent = await staff.signIn(carla);
    const list = await agent.get('/console/apis').expect(200);
    expect(list.text).not.toContain('href="/console/apis/new"');
    const [{ id }] = await db.query(`SELECT id FROM apis WHERE identifier = 'api://orders'`);
    const page = await agent.get(`/console/apis/${id}`).expect(200);
    expect(page.text).not.toContain('Add the scope');
    expect((await agent.get('/console/apis/new')).status).toBe(403);
    const csrf = csrfOf(page.text);
    const forced = (path: string, fields: Record<string, string>) =>
      agent
        .post(path)
        .set('Origin', origin)
        .type('form')
        .send(formBody({ _csrf: csrf, ...fields }));
    expect((await forced('/console/apis/new', { displayName: 'Mallory', identifier: 'api://mallory' })).status).toBe(
      403,
    );
    expect((await forced(`/console/apis/${id}/scopes`, { value: 'Orders.Delete' })).status).toBe(403);
    const itAgent = await staff.signIn(ivan);
    const noCsrf = await itAgent
      .post(`/console/apis/${id}/scopes`)
      .set('Origin', origin)
      .type('form')
      .send(formBody({ value: 'Orders.Delete' }));
    expect(noCsrf.status).toBe(403);
    expect(await db.query(`SELECT 1 FROM apis WHERE identifier = 'api://mallory'`)).toEqual([]);
    expect(await db.query(`SELECT 1 FROM api_scopes WHERE value = 'Orders.Delete'`)).toEqual([]);
  });

  it('per client, IT assigns scopes with one checkbox per scope grouped by API; removing all sends it back to awaiting scopes', async () => {
    const [{ id }] = await db.query(`SELECT id FROM apis WHERE identifier = 'api://orders'`);
    const agent = await staff.signIn(ivan);
    await staff.post(agent, `/console/apis/${id}`, `/console/apis/${id}/scopes`, { value: 'Orders.Write' });
    const client = await admin.get(ClientService).create(tenantId, SYSTEM_ACTOR, { displayName: 'Warehouse' });
    const path = `/console/clients/${client.clientId}`;
    const page = await agent.get(path).expect(200);
    expect(page.text).toMatch(/<fieldset id="api-[0-9a-f-]+"\s*>\s*<legend>Orders API \(api:\/\/orders\)<\/legend>/);
    expect(page.text.match(/type="checkbox"/g)).toHaveLength(2);
    const saved = await staff.post(agent, path, `${path}/scopes`, {
      scopes: ['api://orders/Orders.Read', 'api://orders/Orders.Write'],
    });
    expect(saved.status).toBe(303);
    expect(await admin.get(ClientService).get(tenantId, client.clientId)).toMatchObject({
      state: 'active',
      scopes: ['api://orders/Orders.Read', 'api://orders/Orders.Write'],
    });
    const cleared = await staff.post(agent, path, `${path}/scopes`, {});
    expect((await agent.get(cleared.headers.location!)).text).toContain(
      'Warehouse holds no scope now. It awaits scopes again',
    );
    expect(await admin.get(ClientService).get(tenantId, client.clientId)).toMatchObject({
      state: 'awaiting_scopes',
      scopes: [],
    });
    const filtered = await agent.get(`/console/clients?api=${id}`);
    expect(filtered.text).not.toContain('>Warehouse<');
  });
});
