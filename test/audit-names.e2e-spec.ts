import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';
import { ConsoleFixtures } from './support/console.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * SECURITY 60 (red-team finding L4) and the audit's names: an event keeps who acted and what it
 * acted on as they were named then — a later rename ("System") relabels nothing, in the REST
 * answer, the console list and the CSV. Filters take a name or an id; an event
 * opens with what changed.
 */
describe('audit events keep their names', () => {
  const apps = new AccessApps();
  let administrator: OperatorFixture;
  let carla: OperatorFixture;
  let staff: ConsoleFixtures;
  let clientId: string;

  const events = async (query: string) => (await apps.call('get', `/audit-events?${query}`, administrator.token)).body.items as Json[];

  beforeAll(async () => {
    await apps.start({}, { listenAdmin: true });
    staff = new ConsoleFixtures(apps.admin, apps.adminUrl!);
    administrator = await apps.fixtures.operator(apps.tenant, ['Administrator'], 'ada');
    carla = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'carla');
    await apps.call('patch', `/users/${carla.user.id}`, administrator.token, { displayName: 'Carla Contact' });
    clientId = (await apps.call('post', '/clients', carla.token, { displayName: 'Warehouse sync' })).body.clientId;
    const it_ = await apps.fixtures.operator(apps.tenant, ['ITDepartment'], 'ivan');
    const api = (await apps.call('post', '/apis', it_.token, { identifier: 'api://stock', displayName: 'Stock' })).body;
    for (const value of ['Stock.Read', 'Stock.Write']) await apps.call('post', `/apis/${api.id}/scopes`, it_.token, { value });
    await apps.call('put', `/clients/${clientId}/scopes`, it_.token, { scopes: ['api://stock/Stock.Read'] });
    await apps.call('put', `/clients/${clientId}/scopes`, it_.token, { scopes: ['api://stock/Stock.Write'] });
  }, 60_000);

  afterAll(() => apps.stop());

  it('a rename of the actor and of the target relabels no past event (REST)', async () => {
    await apps.call('patch', `/users/${carla.user.id}`, administrator.token, { displayName: 'System' });
    // Clients are renamed by their owners' tools; the log must not care how.
    await apps.dataSource.query(`UPDATE api_clients SET display_name = 'Renamed' WHERE client_id = $1`, [clientId]);
    const [created] = await events(`action=client.created&target=${clientId}`);
    expect(created).toMatchObject({
      actor: { type: 'user', userId: carla.user.id, clientId: carla.clientId, name: 'Carla Contact', username: 'carla' },
      targetType: 'client',
      targetId: clientId,
      targetName: 'Warehouse sync',
    });
    const [renamed] = await events(`action=user.updated&target=${carla.user.id}`);
    expect(renamed).toMatchObject({ actor: { name: 'ada', username: 'ada' }, targetName: 'System' });
  });

  it('the console list and its CSV show the names of then, with the ids beside them', async () => {
    const agent = await staff.signIn(await staff.staff(apps.tenant.tenantId, ['Administrator']));
    const page = await agent.get(`/console/audit?action=client.created`).expect(200);
    expect(page.text).toContain('Carla Contact');
    expect(page.text).toContain('Warehouse sync');
    expect(page.text).toMatch(new RegExp(`<code class="id">${clientId}</code>`));
    expect(page.text).not.toMatch(/>System</);
    const csv = await agent.get('/console/audit/export.csv?action=client.created').expect(200);
    const row = csv.text.split('\r\n').find((line) => line.includes(clientId))!;
    expect(row).toMatch(new RegExp(`,Carla Contact,carla,${carla.user.id},${carla.clientId},client\\.created,client,Warehouse sync,${clientId},`));
  });

  it('filters take a name or a username, and refuse a name that stands for too much, naming the filter', async () => {
    const byUsername = await events('actor=carla&action=client.*');
    expect(byUsername.map((e) => e.action)).toContain('client.created');
    expect(byUsername.every((e) => e.actor.userId === carla.user.id)).toBe(true);
    const byTarget = await events('target=Renamed&action=client.scopes.set');
    expect(byTarget).toHaveLength(2);
    for (let i = 0; i < 21; i++) {
      await apps.call('post', '/users', administrator.token, { username: `bulk${i}`, email: `bulk${i}@example.com`, displayName: `Bulk ${i}` });
    }
    const broad = await apps.call('get', '/audit-events?target=Bulk', administrator.token);
    expect([broad.status, broad.body.code, broad.body.errors[0].field]).toEqual([400, 'audit_filter_too_broad', 'target']);
    const agent = await staff.signIn(await staff.staff(apps.tenant.tenantId, ['Auditor']));
    const page = await agent.get('/console/audit?actor=Bulk');
    expect(page.status).toBe(400);
    expect(page.text).toMatch(/id="actor-error">More than 20 people and clients have &quot;Bulk&quot; in their name/);
  });

  it('client.scopes.set says which scopes were added and removed; the event page shows old and new', async () => {
    const [latest] = await events(`action=client.scopes.set&target=${clientId}`);
    expect(latest.details).toMatchObject({ added: ['api://stock/Stock.Write'], removed: ['api://stock/Stock.Read'] });
    expect((await apps.call('get', `/audit-events/${latest.id}`, administrator.token)).body).toEqual(latest);
    expect((await apps.call('get', '/audit-events/00000000-0000-4000-8000-000000000000', administrator.token)).status).toBe(404);
    const agent = await staff.signIn(await staff.staff(apps.tenant.tenantId, ['Auditor']));
    const page = await agent.get(`/console/audit/${latest.id}`).expect(200);
    expect(page.text).toMatch(/<h3>Added<\/h3>\s*<ul class="values"><li><code class="id">api:\/\/stock\/Stock.Write<\/code>/);
    expect(page.text).toMatch(/<h3>Removed<\/h3>\s*<ul class="values"><li><code class="id">api:\/\/stock\/Stock.Read<\/code>/);
    const [rename] = await events(`action=user.updated&target=${carla.user.id}`);
    const renamed = await agent.get(`/console/audit/${rename.id}`).expect(200);
    expect(renamed.text).toMatch(/<td data-label="Field" class="">displayName<\/td>\s*<td data-label="Before" class=""><span class="value">Carla Contact<\/span><\/td>\s*<td data-label="After" class=""><span class="value">System<\/span>/);
    expect((await agent.get('/console/audit/not-an-id')).status).toBe(404);
  });

  it('offers the recorded actions as a list and the date presets; a preset and a From time together are refused', async () => {
    const agent = await staff.signIn(await staff.staff(apps.tenant.tenantId, ['Auditor']));
    const page = await agent.get('/console/audit?period=1h&action=client.scopes.set').expect(200);
    expect(page.text).toMatch(/<option value="client\.scopes\.set"\s+selected/);
    expect(page.text).toContain('<option value="client.*"');
    expect(page.text).toMatch(/<option value="24h"/);
    expect(page.text.match(/<time datetime=/g)).toHaveLength(2);
    const both = await agent.get('/console/audit?period=24h&since=2026-01-01');
    expect(both.status).toBe(400);
    expect(both.text).toContain('Choose a period or a From time, not both.');
    expect((await agent.get('/console/audit?period=fortnight')).status).toBe(400);
    expect((await request(apps.admin.getHttpServer()).get('/console/audit/export.csv?period=1h')).status).not.toBe(500);
  });
});
