import type request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleApp, type StaffMember, csrfOf, startConsoleApp } from './support/console.js';

/**
 * SECURITY 60 (first half, red-team finding L3): a sign-out checks Origin and CSRF whatever tenant
 * its URL names, and ends only its own tenant's session. Before, `POST /t/acme/console/logout`
 * without a token ended the `default` console session of the browser (the check ran only when a
 * session of the URL's tenant existed, the end did not look at the tenant).
 */
describe('console sign-out across tenants', () => {
  let app: ConsoleApp;
  let ada: StaffMember;
  let otto: StaffMember;
  let acmeId: string;

  const alive = async (agent: request.Agent, base: string) => (await agent.get(base)).status === 200;
  const signOut = (agent: request.Agent, base: string, fields: Record<string, string>, origin = app.origin) =>
    agent.post(`${base}/logout`).set('Origin', origin).type('form').send(fields);
  const tokenOf = async (agent: request.Agent, base: string) => csrfOf((await agent.get(base)).text);

  beforeAll(async () => {
    app = await startConsoleApp({ slug: 'default', displayName: 'Default Ltd' });
    [{ id: acmeId }] = await app.db.query(`INSERT INTO tenants (slug, display_name) VALUES ('acme', 'Acme Ltd') RETURNING id`);
    ada = await app.staff.staff(app.tenantId, ['Administrator'], { username: 'ada' });
    otto = await app.staff.staff(acmeId, ['Administrator'], { username: 'otto' });
  }, 60_000);

  afterAll(() => app?.close());

  it("a sign-out of another tenant's console without a token is refused and ends nothing", async () => {
    const agent = await app.staff.signIn(ada);
    const refused = await signOut(agent, '/t/acme/console', {});
    expect(refused.status).toBe(403);
    expect(await alive(agent, '/console')).toBe(true);
  });

  it("a sign-out of another tenant's console with a token leaves this tenant's session alive", async () => {
    const agent = await app.staff.signIn(ada);
    const token = await tokenOf(agent, '/console');
    const answer = await signOut(agent, '/t/acme/console', { _csrf: token });
    expect([answer.status, answer.headers.location]).toEqual([303, '/t/acme/console/login']);
    expect(answer.headers['set-cookie'] ?? []).toEqual([]);
    expect(await alive(agent, '/console')).toBe(true);
  });

  it('a cross-site sign-out is refused whatever the tenant, with or without a session of it', async () => {
    const agent = await app.staff.signIn(ada);
    const token = await tokenOf(agent, '/console');
    for (const base of ['/console', '/t/acme/console', '/t/default/console']) {
      expect((await signOut(agent, base, { _csrf: token }, 'https://evil.example')).status).toBe(403);
    }
    expect(await alive(agent, '/console')).toBe(true);
  });

  it("a tenant's own sign-out needs its session's token, then ends that session only", async () => {
    const agent = await app.staff.signIn(otto, '/t/acme/console');
    expect((await signOut(agent, '/t/acme/console', {})).status).toBe(403);
    expect((await signOut(agent, '/t/acme/console', { _csrf: 'x'.repeat(43) })).status).toBe(403);
    expect(await alive(agent, '/t/acme/console')).toBe(true);

    const other = await app.staff.signIn(ada);
    const ended = await signOut(agent, '/t/acme/console', { _csrf: await tokenOf(agent, '/t/acme/console') });
    expect([ended.status, ended.headers.location]).toEqual([303, '/t/acme/console/login']);
    expect(await alive(agent, '/t/acme/console')).toBe(false);
    expect(await alive(other, '/console')).toBe(true);
  });

  it('a sign-out with no session at all still wants a same-origin form with a token', async () => {
    const agent = (await import('supertest')).default.agent(app.admin.getHttpServer());
    expect((await signOut(agent, '/console', {})).status).toBe(403);
    expect((await signOut(agent, '/console', { _csrf: 'stale' })).status).toBe(303);
  });
});
