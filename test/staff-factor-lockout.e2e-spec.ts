import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessApps } from './support/access-apps.js';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { ConsoleFixtures, type StaffMember, csrfOf } from './support/console.js';
import { WebClient } from './support/web-client.js';

type Agent = ReturnType<typeof request.agent>;
const NEW_PASSWORD = 'nine herons wading through the reeds';

/**
 * Issue 37 M1: wrong second-factor codes shared the password's lockout, and a password change in
 * the Web UI (with the password alone) cleared it — three rounds gave twelve wrong codes without a
 * lock. Second-factor failures are counted apart, never cleared by a password change, and in the
 * Web UI a person who holds a role passes their second factor before anything, their password
 * change included (SECURITY 58).
 */
describe('staff second factor: its own lockout, and the Web UI asks for it too', () => {
  const apps = new AccessApps();
  let admin: OperatorFixture;
  let desk: ConsoleFixtures;
  let web: WebClient;

  const factorState = async (id: string) =>
    (await apps.dataSource.query(`SELECT failed_second_factor_count AS n, second_factor_locked_until AS until, password_hash AS hash FROM users WHERE id = $1`, [id]))[0] as {
      n: number;
      until: Date | null;
      hash: string;
    };

  /** Waits out the short lock (1 s, 2 s) the 3rd and 4th wrong code set, so the next code is checked. */
  async function waitUnlocked(id: string): Promise<void> {
    for (;;) {
      const { until } = await factorState(id);
      if (!until || new Date(until).getTime() < Date.now()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Wrong codes at the console's second step, each after any short lock is over. */
  async function wrongConsoleCodes(member: StaffMember, agent: Agent, times: number) {
    let last;
    for (let i = 0; i < times; i++) {
      await waitUnlocked(member.id);
      last = await desk.codeStep(agent, '/console', member.app!.wrongCode());
    }
    return last!;
  }

  /** A Web UI form POST of a signed-in agent, with the CSRF token of the page it sits on. */
  async function webPost(agent: Agent, page: string, action: string, fields: Record<string, string>) {
    const form = await agent.get(page);
    return agent.post(action).set('Origin', apps.publicUrl).type('form').send({ _csrf: csrfOf(form.text), ...fields });
  }

  beforeAll(async () => {
    await apps.start({}, { listenAdmin: true });
    admin = await apps.fixtures.operator(apps.tenant, ['Administrator'], 'ada');
    desk = new ConsoleFixtures(apps.admin, apps.adminUrl!);
    web = new WebClient(apps.identity, apps.publicUrl, apps.tenant.tenantId);
  }, 60_000);

  afterAll(() => apps.stop());

  it('the issue replayed: four wrong codes, a Web UI password change with the password alone, a fifth code — locked', async () => {
    const sid = await desk.staff(apps.tenant.tenantId, ['ContactPerson'], { username: 'sid' });
    const consoleAgent = request.agent(apps.admin.getHttpServer());
    expect((await desk.passwordStep(consoleAgent, sid)).status).toBe(303);
    await wrongConsoleCodes(sid, consoleAgent, 4);
    expect((await factorState(sid.id)).n).toBe(4);

    await waitUnlocked(sid.id); // the 4th wrong code's short pause, which the password step honours too
    const { agent, res } = await web.login('sid', sid.password);
    expect(res.headers.location).toMatch(/^\/login\/code\?returnTo=/);
    const before = (await factorState(sid.id)).hash;
    const change = await webPost(agent, '/docs', '/password', { currentPassword: sid.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect([change.status, change.headers.location]).toEqual([303, '/login/code?returnTo=/password']);
    expect((await factorState(sid.id)).hash).toBe(before); // not changed: the password alone opens nothing
    expect((await factorState(sid.id)).n).toBe(4);

    const fifth = await wrongConsoleCodes(sid, consoleAgent, 1);
    expect(fifth.status).toBe(401);
    expect(fifth.text).toContain('locked for 15 minutes');
    const locked = await factorState(sid.id);
    expect(locked.n).toBe(5);
    expect(new Date(locked.until!).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect((await desk.codeStep(consoleAgent, '/console', await desk.freshCode(sid))).status).toBe(401); // even the right code, while locked
  });

  it('a password set through a reset link leaves the second-factor lock as it is; an Administrator’s unlock clears it', async () => {
    const ida = await desk.staff(apps.tenant.tenantId, ['ITDepartment'], { username: 'ida' });
    const consoleAgent = request.agent(apps.admin.getHttpServer());
    await desk.passwordStep(consoleAgent, ida);
    await wrongConsoleCodes(ida, consoleAgent, 5);
    const lock = (await factorState(ida.id)).until;
    expect(lock).not.toBeNull();

    expect((await apps.call('post', `/users/${ida.id}/reset-password`, admin.token, { mode: 'activation-link' })).status).toBe(200);
    const mail = await apps.mailTo('ida@example.com', /password/i);
    const { page, post } = await apps.visit(new URL(apps.linkIn(mail, 'activate')).pathname);
    expect(page.status).toBe(200);
    expect((await post({ newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(200);
    expect(await factorState(ida.id)).toMatchObject({ n: 5, until: lock });
    const again = request.agent(apps.admin.getHttpServer());
    const refused = await desk.passwordStep(again, { username: 'ida', password: NEW_PASSWORD });
    expect([refused.status, refused.text]).toEqual([401, expect.stringContaining('locked for 15 minutes')]); // the new password does not lift it

    expect((await apps.call('post', `/users/${ida.id}/unlock`, admin.token)).body.lockedUntil).toBeNull();
    expect((await desk.passwordStep(again, { username: 'ida', password: NEW_PASSWORD })).status).toBe(303);
    expect((await desk.codeStep(again, '/console', await desk.freshCode(ida))).status).toBe(303);
  });

  it('Web UI: a person with a role passes the second factor before any page, and wrong codes count toward the same lock', async () => {
    const ivy = await desk.staff(apps.tenant.tenantId, ['Auditor'], { username: 'ivy' });
    const { agent } = await web.login('ivy', ivy.password);
    expect((await agent.get('/docs')).headers.location).toBe('/login/code?returnTo=/docs');
    expect((await agent.get('/password')).headers.location).toBe('/login/code?returnTo=/password');
    const wrong = await webPost(agent, '/login/code', '/login/code', { code: ivy.app!.wrongCode(), returnTo: '/docs' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('That code did not work');
    expect((await factorState(ivy.id)).n).toBe(1);
    const right = await webPost(agent, '/login/code', '/login/code', { code: await desk.freshCode(ivy), returnTo: '/docs' });
    expect([right.status, right.headers.location]).toEqual([303, '/docs']);
    expect((await agent.get('/docs')).status).toBe(200);
    expect((await factorState(ivy.id)).n).toBe(0);
    const changed = await webPost(agent, '/password', '/password', { currentPassword: ivy.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, returnTo: '/docs' });
    expect(changed.status).toBe(303);
    expect((await factorState(ivy.id)).hash).not.toBe(null);
  });

  it('Web UI: a person with a role but no second factor is sent to set one up in the console; a person without a role logs in as before', async () => {
    const new_ = await desk.staff(apps.tenant.tenantId, ['ContactPerson'], { username: 'nell', enrol: false });
    const refused = await web.login('nell', new_.password);
    expect(refused.res.status).toBe(403);
    expect(refused.res.text).toContain('sign in to the console once');
    expect(await web.alive(refused.agent)).toBe(false);
    await web.user('paula');
    const plain = await web.login('paula');
    expect([plain.res.status, plain.res.headers.location]).toEqual([303, '/docs']);
  });
});
