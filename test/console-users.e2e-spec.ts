import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserService } from '@gatehouse/accounts';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { DocService } from '@gatehouse/docs';
import { InvitationService } from '@gatehouse/invitations';
import { AdminFixtures } from './support/admin-fixtures.js';
import { type ConsoleApp, type ConsoleFixtures, type StaffMember, csrfOf, formBody, startConsoleApp } from './support/console.js';

/** The Users pages over HTTP: the REST API's use cases, permissions and audit events, the person as actor. */
describe('console: users', () => {
  let app: ConsoleApp;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let origin: string;
  let carla: StaffMember; // ContactPerson: Users.Manage, Invitations.Manage, Docs.Manage
  let ivy: StaffMember; // Auditor: Users.Read, Audit.Read
  let carlaAgent: request.Agent;

  const users = () => app.admin.get(UserService);
  const person = (username: string, displayName = username) =>
    users().create(tenantId, SYSTEM_ACTOR, { username, email: `${username}@partner.example`, displayName, password: 'none' });
  const eventBy = async (action: string, target: string) =>
    (await db.query(`SELECT actor_id, actor_client_id FROM audit_events WHERE action = $1 AND target_id = $2`, [action, target]))[0];

  beforeAll(async () => {
    app = await startConsoleApp();
    ({ db, staff, tenantId, origin } = app);
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    ivy = await staff.staff(tenantId, ['Auditor'], { username: 'ivy' });
    carlaAgent = await staff.signIn(carla);
    const docs = app.admin.get(DocService);
    await docs.create(tenantId, SYSTEM_ACTOR, { slug: 'orders-api', title: 'Orders API', body: '# Orders' });
    await docs.create(tenantId, SYSTEM_ACTOR, { slug: 'billing', title: 'Billing', body: '# Billing' });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('lists with search and filters kept in the URL, newest first, Newer/Older by 50', async () => {
    for (let i = 0; i < 55; i += 1) await person(`bulk${String(i).padStart(2, '0')}`, `Bulk Person ${i}`);
    await person('pat.partner', 'Pat Partner');
    await person('zoe', 'Patricia Zed');
    const found = await carlaAgent.get('/console/users?q=PAT').expect(200);
    expect(found.text).toContain('Pat Partner');
    expect(found.text).toContain('Patricia Zed'); // display name prefix, any case
    expect(found.text).not.toContain('Bulk Person');
    expect(found.text).toMatch(/id="q"[^>]*value="PAT"/);
    const first = await carlaAgent.get('/console/users?q=bulk').expect(200);
    expect((first.text.match(/<tr>/g) ?? []).length).toBe(51); // header + 50
    expect(first.text).toContain('Bulk Person 54'); // newest first
    const older = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    expect(older).toContain('q=bulk');
    const second = await carlaAgent.get(older).expect(200);
    expect((second.text.match(/<tr>/g) ?? []).length).toBe(6);
    expect(second.text).toContain('Bulk Person 0<');
    const newer = /href="([^"]+)" rel="prev"/.exec(second.text)![1]!.replace(/&amp;/g, '&');
    const back = await carlaAgent.get(newer).expect(200);
    expect(back.text).toContain('Bulk Person 54');
    expect((back.text.match(/<tr>/g) ?? []).length).toBe(51);
    expect(back.text).not.toContain('rel="prev"');
    const none = await carlaAgent.get('/console/users?q=nobody-like-this&status=disabled').expect(200);
    expect(none.text).toContain('No user matches these filters');
    expect((await carlaAgent.get('/console/users?status=sleeping')).status).toBe(400);
    const [pat] = await db.query(`SELECT id FROM users WHERE username = 'pat.partner'`);
    await app.admin.get(InvitationService).create(tenantId, SYSTEM_ACTOR, { userId: pat.id, sections: ['billing'], expiresInHours: 24 });
    const expiring = await carlaAgent.get('/console/users?invitations=expiring').expect(200); // the Overview's link
    expect(expiring.text).toContain('Pat Partner');
    expect(expiring.text).not.toContain('Patricia Zed');
    expect(expiring.text).toContain('invitation expiring within 48 hours');
  });

  it('creates a user with an activation link and an invitation; errors keep the form as typed', async () => {
    const refused = await staff.post(carlaAgent, '/console/users/new', '/console/users/new', {
      displayName: 'Quinn Partner', email: 'not-an-address', username: 'quinn', access: 'invitation', expiresInHours: '168',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/id="email"[^>]*value="not-an-address"[^>]*aria-invalid="true"/);
    expect(refused.text).toMatch(/id="displayName"[^>]*value="Quinn Partner"/);
    expect(refused.text).toContain('Choose at least one section.');
    expect(await db.query(`SELECT id FROM users WHERE username = 'quinn'`)).toEqual([]);
    const made = await staff.post(carlaAgent, '/console/users/new', '/console/users/new', {
      displayName: 'Quinn Partner', email: 'quinn@partner.example', username: 'quinn', access: 'invitation', sections: ['orders-api'], expiresInHours: '48',
    });
    expect(made.status).toBe(303);
    const [quinn] = await db.query(`SELECT id FROM users WHERE username = 'quinn'`);
    const detail = await carlaAgent.get(made.headers.location!).expect(200);
    expect(detail.text).toContain('An activation link went to quinn@partner.example');
    expect(detail.text).toContain('An invitation to orders-api went out too');
    expect(await eventBy('user.created', quinn.id)).toEqual({ actor_id: carla.id, actor_client_id: null });
    expect(await db.query(`SELECT purpose FROM account_links WHERE user_id = $1`, [quinn.id])).toHaveLength(1);
    const [invitation] = await db.query(`SELECT id, section_slugs FROM invitations WHERE user_id = $1`, [quinn.id]);
    expect(invitation.section_slugs).toEqual(['orders-api']);
    const taken = await staff.post(carlaAgent, '/console/users/new', '/console/users/new', { displayName: 'Q2', email: 'q2@partner.example', username: 'QUINN' });
    expect(taken.status).toBe(400);
    expect(taken.text).toContain('Choose another username.');
  });

  it('disables after a confirmation naming the user, enables, unlocks, resets the password — each audited as the person', async () => {
    const dan = await person('dan', 'Dan Partner');
    const confirm = await carlaAgent.get(`/console/users/${dan.id}/disable`).expect(200);
    expect(confirm.text).toContain('Dan Partner');
    expect(confirm.text).toContain('can no longer sign in');
    expect((await db.query(`SELECT status FROM users WHERE id = $1`, [dan.id]))[0].status).toBe('active'); // a GET changes nothing
    const disabled = await staff.post(carlaAgent, `/console/users/${dan.id}/disable`, `/console/users/${dan.id}/disable`, {});
    expect(disabled.status).toBe(303);
    expect((await db.query(`SELECT status FROM users WHERE id = $1`, [dan.id]))[0].status).toBe('disabled');
    expect((await carlaAgent.get(disabled.headers.location!)).text).toContain('Dan Partner is disabled');
    expect(await eventBy('user.disabled', dan.id)).toEqual({ actor_id: carla.id, actor_client_id: null });
    await staff.post(carlaAgent, `/console/users/${dan.id}`, `/console/users/${dan.id}/enable`, {});
    expect(await eventBy('user.enabled', dan.id)).toEqual({ actor_id: carla.id, actor_client_id: null });

    await db.query(`UPDATE users SET failed_login_count = 5, locked_until = now() + interval '15 minutes' WHERE id = $1`, [dan.id]);
    const locked = await carlaAgent.get(`/console/users/${dan.id}`).expect(200);
    expect(locked.text).toContain('after 5 failed sign-in attempts in a row');
    expect((await carlaAgent.get('/console/users?status=locked')).text).toContain('Dan Partner');
    const unlocked = await staff.post(carlaAgent, `/console/users/${dan.id}`, `/console/users/${dan.id}/unlock`, {});
    expect(unlocked.status).toBe(303);
    expect((await db.query(`SELECT locked_until FROM users WHERE id = $1`, [dan.id]))[0].locked_until).toBeNull();
    expect(await eventBy('user.unlocked', dan.id)).toEqual({ actor_id: carla.id, actor_client_id: null });

    expect((await carlaAgent.get(`/console/users/${dan.id}/reset-password`)).text).toContain('stops working at once');
    const reset = await staff.post(carlaAgent, `/console/users/${dan.id}/reset-password`, `/console/users/${dan.id}/reset-password`, {});
    expect(reset.status).toBe(303);
    expect(await eventBy('user.password.reset', dan.id)).toEqual({ actor_id: carla.id, actor_client_id: null });
  });

  it('a generated one-time password asks for a fresh second factor, then shows it once; never in the audit log', async () => {
    const gil = await person('gil', 'Gil Partner');
    const agent = await staff.signIn(carla);
    await db.query(`UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1 AND kind = 'console'`, [carla.id]);
    const path = `/console/users/${gil.id}/reset-password`;
    const asked = await staff.post(agent, path, `${path}/generate`, {});
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Confirm it is you');
    expect((await db.query(`SELECT must_change_password FROM users WHERE id = $1`, [gil.id]))[0].must_change_password).toBe(false);
    const shown = await agent.post(`${path}/generate`).set('Origin', origin).type('form')
      .send(formBody({ _csrf: csrfOf(asked.text), _stepup_code: await staff.secondFactor(carla) }));
    expect(shown.status).toBe(200);
    expect(shown.headers['cache-control']).toContain('no-store');
    const password = /data-copy="one-time password">([^<]+)</.exec(shown.text)![1]!;
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await db.query(`SELECT must_change_password FROM users WHERE id = $1`, [gil.id]))[0].must_change_password).toBe(true);
    const [event] = await db.query(`SELECT actor_id, details FROM audit_events WHERE action = 'user.password.reset' AND target_id = $1`, [gil.id]);
    expect(event.actor_id).toBe(carla.id);
    expect(JSON.stringify(event.details)).not.toContain(password);
    expect((await agent.get(`/console/users/${gil.id}`)).text).not.toContain(password);
  });

  it('opens sections by invitation, resends and revokes it, closes a section; History shows the events', async () => {
    const eve = await person('eve', 'Eve Partner');
    const bad = await staff.post(carlaAgent, `/console/users/${eve.id}`, `/console/users/${eve.id}/invitations`, { expiresInHours: '9999' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Choose at least one section.');
    expect(bad.text).toMatch(/id="invite-hours"[^>]*value="9999"[^>]*aria-invalid="true"/);
    const sent = await staff.post(carlaAgent, `/console/users/${eve.id}`, `/console/users/${eve.id}/invitations`, { sections: ['billing'], expiresInHours: '24' });
    expect(sent.status).toBe(303);
    const [inv] = await db.query(`SELECT id FROM invitations WHERE user_id = $1`, [eve.id]);
    const page = await carlaAgent.get(`/console/users/${eve.id}`);
    expect(page.text).toContain(`/console/users/${eve.id}/invitations/${inv.id}/resend`);
    await staff.post(carlaAgent, `/console/users/${eve.id}`, `/console/users/${eve.id}/invitations/${inv.id}/resend`, {});
    expect(await db.query(`SELECT actor_id FROM audit_events WHERE action = 'invitation.resent' AND target_id = $1`, [inv.id])).toEqual([{ actor_id: carla.id }]);
    expect((await carlaAgent.get(`/console/users/${eve.id}/invitations/${inv.id}/revoke`)).text).toContain('stops working at once');
    await staff.post(carlaAgent, `/console/users/${eve.id}`, `/console/users/${eve.id}/invitations/${inv.id}/revoke`, {});
    expect((await db.query(`SELECT status FROM invitations WHERE id = $1`, [inv.id]))[0].status).toBe('revoked');

    await app.admin.get(DocService).grant(db.manager, tenantId, eve.id, ['orders-api']);
    expect((await carlaAgent.get(`/console/users/${eve.id}/sections/orders-api/close`)).text).toContain('can no longer read');
    const closed = await staff.post(carlaAgent, `/console/users/${eve.id}`, `/console/users/${eve.id}/sections/orders-api/close`, {});
    expect(closed.status).toBe(303);
    expect(await app.admin.get(DocService).sectionsOf(tenantId, eve.id)).toEqual([]);
    expect(await eventBy('doc_section.access_revoked', eve.id)).toEqual({ actor_id: carla.id, actor_client_id: null });

    const ivyAgent = await staff.signIn(ivy);
    const history = await ivyAgent.get(`/console/users/${eve.id}`).expect(200);
    expect(history.text).toContain('doc_section.access_revoked');
    expect(history.text).toMatch(new RegExp(`<a href="/console/users/${carla.id}">Carla Example</a>`)); // the person who acted
    expect(history.text).not.toContain('Disable…'); // an Auditor reads, changes nothing
    const asContact = (await carlaAgent.get(`/console/users/${eve.id}`)).text;
    expect(asContact).toContain('Your roles do not include the audit log.');
    expect(asContact).not.toContain('Change on the Staff page'); // roles: Administrators only
    const ada = await staff.staff(tenantId, ['Administrator']);
    expect((await (await staff.signIn(ada)).get(`/console/users/${carla.id}`)).text).toContain(`href="/console/staff/${carla.id}">Change on the Staff page`);
  });

  it('a forced URL outside the roles answers 403 and changes nothing; a POST without the CSRF token is refused', async () => {
    const fay = await person('fay', 'Fay Partner');
    const ivyAgent = await staff.signIn(ivy);
    expect((await ivyAgent.get('/console/users/new')).status).toBe(403);
    expect((await ivyAgent.get(`/console/users/${fay.id}/disable`)).status).toBe(403);
    const page = await ivyAgent.get('/console/users');
    const forced = await ivyAgent.post(`/console/users/${fay.id}/disable`).set('Origin', origin).type('form').send(formBody({ _csrf: csrfOf(page.text) }));
    expect(forced.status).toBe(403);
    expect(forced.text).toContain('Nothing was changed');
    const created = await ivyAgent.post('/console/users/new').set('Origin', origin).type('form')
      .send(formBody({ _csrf: csrfOf(page.text), displayName: 'Mallory', email: 'm@x.example', username: 'mallory' }));
    expect(created.status).toBe(403);
    const noCsrf = await carlaAgent.post(`/console/users/${fay.id}/disable`).set('Origin', origin).type('form').send(formBody({}));
    expect(noCsrf.status).toBe(403);
    const otherOrigin = await carlaAgent.post(`/console/users/${fay.id}/disable`).set('Origin', 'http://evil.example').type('form')
      .send(formBody({ _csrf: csrfOf((await carlaAgent.get('/console/users')).text) }));
    expect(otherOrigin.status).toBe(403);
    expect((await db.query(`SELECT status FROM users WHERE id = $1`, [fay.id]))[0].status).toBe('active');
    expect(await db.query(`SELECT id FROM users WHERE username = 'mallory'`)).toEqual([]);
    const inv = await app.admin.get(InvitationService).create(tenantId, SYSTEM_ACTOR, { userId: fay.id, sections: ['billing'] });
    expect((await carlaAgent.get(`/console/users/${carla.id}/invitations/${inv.id}/revoke`)).status).toBe(404); // not that user's
  });

  it('REST: a prefix with more matches than are paged by id walks the list in the same order, page after page', async () => {
    const fixtures = new AdminFixtures(app.admin, app.config);
    const tenant = await fixtures.tenant();
    const op = await fixtures.operator(tenant, ['ContactPerson']);
    // 2,100 users named bulk0001 … bulk2100, one second apart, and three that only contain the prefix.
    await db.query(
      `INSERT INTO users (tenant_id, username, username_normalized, email, display_name, status, created_at, updated_at)
       SELECT $1::uuid, 'bulk' || lpad(i::text, 4, '0'), 'bulk' || lpad(i::text, 4, '0'), 'b' || i || '@partner.example', 'Bulk ' || i,
              'active', now() - make_interval(secs => 3000 - i), now()
         FROM generate_series(1, 2100) AS i
       UNION ALL SELECT $1::uuid, 'x' || k || 'bulk', 'x' || k || 'bulk', 'x' || k || '@partner.example', 'X', 'active', now(), now()
         FROM generate_series(1, 3) AS k`,
      [tenant.tenantId],
    );
    const server = app.admin.getHttpServer();
    const get = (query: string) => request(server).get(`/admin/v1/users?${query}`).set('Authorization', `Bearer ${op.token}`);
    const names = (body: { items: Array<{ username: string }> }) => body.items.map((u) => u.username);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 3; pages++) {
      const response: request.Response = await get(`search=bulk&order=newest&limit=100${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      seen.push(...names(response.body));
      cursor = response.body.nextCursor;
    }
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => `bulk${String(2100 - i).padStart(4, '0')}`));
    // A rarer prefix of the same users is paged by id: the same order and the same cursors.
    const rare = await get('search=bulk20&order=newest&limit=50').expect(200);
    expect(names(rare.body)).toEqual(Array.from({ length: 50 }, (_, i) => `bulk${2099 - i}`).filter((n) => n.startsWith('bulk20')).slice(0, 50));
    const rest = await get(`search=bulk20&order=newest&limit=50&cursor=${rare.body.nextCursor}`).expect(200);
    expect(names(rest.body)).toEqual(Array.from({ length: 51 }, (_, i) => `bulk${2049 - i}`).filter((n) => n >= 'bulk2000'));
    expect(rest.body.nextCursor).toBeNull();
  });

  it('REST: GET /admin/v1/users?search= is the same prefix search, documented in OpenAPI', async () => {
    const fixtures = new AdminFixtures(app.admin, app.config);
    const tenant = await fixtures.tenant();
    const op = await fixtures.operator(tenant, ['ContactPerson']);
    const service = users();
    await service.create(tenant.tenantId, SYSTEM_ACTOR, { username: 'olga', email: 'o.k@partner.example', displayName: 'Olga Kay', password: 'none' });
    await service.create(tenant.tenantId, SYSTEM_ACTOR, { username: 'kim', email: 'kim@partner.example', displayName: 'Kim 100%', password: 'none' });
    const server = app.admin.getHttpServer();
    const get = (query: string) => request(server).get(`/admin/v1/users?${query}`).set('Authorization', `Bearer ${op.token}`);
    const byEmail = await get('search=O.K').expect(200);
    expect(byEmail.body.items.map((u: { username: string }) => u.username)).toEqual(['olga']);
    expect(byEmail.body.items[0]).toHaveProperty('lastSignInAt', null);
    expect((await get('search=k').expect(200)).body.items.map((u: { username: string }) => u.username).sort()).toEqual(['kim']);
    expect((await get('search=kim%20100%25').expect(200)).body.items).toHaveLength(1);
    expect((await get('search=%25').expect(200)).body.items).toHaveLength(0); // % is literal, not a wildcard
    expect((await get(`search=${'x'.repeat(101)}`)).status).toBe(400);
    expect((await get('search=kim&order=newest&status=locked')).status).toBe(200);
    const doc = await request(server).get('/admin/openapi.json').expect(200);
    const params = doc.body.paths['/admin/v1/users'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toContain('search');
  });
});
