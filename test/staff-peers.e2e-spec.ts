import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessApps } from './support/access-apps.js';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { ConsoleFixtures, type StaffMember, csrfOf } from './support/console.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Issue 37 M3: a contact person could reset a peer's password with `mode: generate`, enrol the
 * peer's second factor or lock them out, disable them or change their email. Only an
 * Administrator manages a person who holds a role, and a generated password is never issued to
 * such a person (SECURITY 56) — in REST and in the console alike.
 */
describe('staff peers: only an Administrator manages a person who holds a role', () => {
  const apps = new AccessApps();
  let admin: OperatorFixture;
  let carla: OperatorFixture;
  let desk: ConsoleFixtures;
  /** A contact person who has not set up a second factor yet, and one who has. */
  let pete: StaffMember;
  let pam: StaffMember;

  const call = (method: 'get' | 'post' | 'patch', path: string, token: string, body?: unknown) => apps.call(method, path, token, body);
  const row = async (id: string) =>
    (await apps.dataSource.query(`SELECT email, display_name, roles, status, password_hash, locked_until, updated_at FROM users WHERE id = $1`, [id]))[0] as Json;
  const auditCount = () => apps.count(`SELECT count(*)::int AS n FROM audit_events WHERE action NOT LIKE 'user.login%'`);

  /** Every way the REST API manages a user, as `token` would try it on `id`. */
  const everyChange = (id: string, token: string) => ({
    generate: () => call('post', `/users/${id}/reset-password`, token, { mode: 'generate' }),
    link: () => call('post', `/users/${id}/reset-password`, token, { mode: 'activation-link' }),
    email: () => call('patch', `/users/${id}`, token, { email: 'carla.private@mail.example' }),
    name: () => call('patch', `/users/${id}`, token, { displayName: 'System' }),
    roles: () => call('patch', `/users/${id}`, token, { roles: ['ContactPerson', 'Auditor'] }),
    disable: () => call('post', `/users/${id}/disable`, token),
    enable: () => call('post', `/users/${id}/enable`, token),
    unlock: () => call('post', `/users/${id}/unlock`, token),
  });

  beforeAll(async () => {
    await apps.start({}, { listenAdmin: true });
    admin = await apps.fixtures.operator(apps.tenant, ['Administrator'], 'ada');
    carla = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'carla');
    desk = new ConsoleFixtures(apps.admin, apps.adminUrl!);
    pete = await desk.staff(apps.tenant.tenantId, ['ContactPerson'], { username: 'pete', enrol: false });
    pam = await desk.staff(apps.tenant.tenantId, ['ContactPerson'], { username: 'pam' });
  }, 60_000);

  afterAll(() => apps.stop());

  it('REST: a contact person cannot reset, rename, re-address, disable, enable or unlock a peer; nothing changes', async () => {
    for (const peer of [pete, pam]) {
      const before = [await row(peer.id), await auditCount()];
      for (const [name, attempt] of Object.entries(everyChange(peer.id, carla.token))) {
        const answer = await attempt();
        expect([answer.status, answer.body.code], `${peer.username}: ${name}`).toEqual([403, name === 'roles' ? 'roles_require_administrator' : 'user_privileged']);
        expect(JSON.stringify(answer.body)).not.toMatch(/initialPassword/);
      }
      expect([await row(peer.id), await auditCount()]).toEqual(before);
    }
    // The peer's own password still gets them in: nobody took the account over.
    const agent = request.agent(apps.admin.getHttpServer());
    expect((await desk.passwordStep(agent, pete)).headers.location).toMatch(/\/console\/enroll/);
  });

  it('REST: an Administrator manages a person with a role, but never with a generated password', async () => {
    const { generate, link, name, disable, enable, unlock } = everyChange(pam.id, admin.token);
    const refused = await generate();
    expect([refused.status, refused.body.code]).toEqual([400, 'generated_password_for_staff']);
    expect(refused.body.errors).toEqual([{ field: 'mode', message: expect.stringContaining('never gets a generated password') }]);
    const created = await call('post', '/users', admin.token, { username: 'sam', email: 'sam@acme.example', displayName: 'Sam', roles: ['Auditor'], password: 'generate' });
    expect([created.status, created.body.errors?.[0]?.field]).toEqual([400, 'password']);
    expect((await name()).body.displayName).toBe('System');
    expect((await disable()).body.status).toBe('disabled');
    expect((await enable()).body.status).toBe('active');
    expect((await unlock()).status).toBe(200);
    const reset = await link();
    expect([reset.status, reset.body.initialPassword]).toEqual([200, undefined]);
    expect((await row(pam.id)).password_hash).toBeNull();
  });

  it('REST: a contact person still manages people without a role, generated password included', async () => {
    const plain = await call('post', '/users', carla.token, { username: 'paul', email: 'paul@partner.example', displayName: 'Paul' });
    const { generate, name, disable, enable } = everyChange(plain.body.id, carla.token);
    expect((await generate()).body.initialPassword).toEqual(expect.any(String));
    expect((await name()).status).toBe(200);
    expect((await disable()).body.status).toBe('disabled');
    expect((await enable()).body.status).toBe('active');
  });

  it('console: a contact person sees no actions on a peer, and a forced POST is refused with nothing changed', async () => {
    const cora = await desk.staff(apps.tenant.tenantId, ['ContactPerson'], { username: 'cora' });
    const agent = await desk.signIn(cora);
    const page = await agent.get(`/console/users/${pete.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('holds a role: only an Administrator manages their account.');
    expect(page.text).not.toMatch(/reset-password|\/disable"|\/unlock/);
    const before = [await row(pete.id), await auditCount()];
    for (const action of ['disable', 'enable', 'unlock', 'reset-password', 'reset-password/generate']) {
      const forced = await agent.post(`/console/users/${pete.id}/${action}`).set('Origin', apps.adminUrl!).type('form').send({ _csrf: csrfOf(page.text) });
      expect(forced.status, action).toBe(403);
      expect(forced.text, action).toContain('only an Administrator manages their account');
    }
    expect([await row(pete.id), await auditCount()]).toEqual(before);
  });

  it('console: an Administrator is not offered a generated password for a person with a role', async () => {
    const ada = await desk.staff(apps.tenant.tenantId, ['Administrator'], { username: 'ada-console' });
    const agent = await desk.signIn(ada);
    const confirm = await agent.get(`/console/users/${pete.id}/reset-password`);
    expect(confirm.text).toContain('Reset the password');
    expect(confirm.text).not.toContain('Generate a one-time password');
    const forced = await agent.post(`/console/users/${pete.id}/reset-password/generate`).set('Origin', apps.adminUrl!).type('form').send({ _csrf: csrfOf(confirm.text) });
    expect(forced.status).toBe(400);
    expect(forced.text).toContain('never gets a generated password');
  });
});
