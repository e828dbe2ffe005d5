import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@gatehouse/config';
import { SessionService } from '@gatehouse/sessions';
import { ConsoleSession } from '../apps/admin/src/console/frame/console-session.js';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { type ConsoleApp, type ConsoleFixtures, STAFF_PASSWORD, csrfOf, formBody, startConsoleApp } from './support/console.js';
import { cli } from './support/operator-cli.js';
import { testConfig } from './support/test-config.js';
import { authenticatorApp, secretOf } from './support/totp.js';
import { WebClient } from './support/web-client.js';

const NEW_PASSWORD = 'seventeen paper boats at dusk';

/** Staff sign-in to the console over HTTP (DESIGN §7, SECURITY.md 43, 44, 47). */
describe('console sign-in', () => {
  let app: ConsoleApp;
  let admin: INestApplication;
  let identity: INestApplication;
  let config: AppConfig;
  let origin: string;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;

  beforeAll(async () => {
    app = await startConsoleApp();
    ({ admin, config, origin, db, staff, tenantId } = app);
    identity = await createIdentityApp({ config });
  }, 60_000);

  afterAll(async () => {
    await identity?.close();
    await app?.close();
  });

  it('first sign-in from `operator invite`: password, authenticator, ten recovery codes shown once', async () => {
    const { stdout } = await cli(config, ['operator', 'invite', '--tenant', 'acme', '--email', 'ada@example.com', '--role', 'Administrator', '--json']);
    const invited = JSON.parse(stdout) as { activationUrl: string; username: string; created: boolean };
    expect(invited).toMatchObject({ username: 'ada', created: true });
    expect(invited.activationUrl).toMatch(new RegExp(`^${origin}/console/activate/[A-Za-z0-9_-]{43}$`));
    const path = new URL(invited.activationUrl).pathname;
    const agent = request.agent(admin.getHttpServer());

    const form = await agent.get(path).expect(200);
    expect(form.text).toContain('<strong>ada</strong>');
    const weak = await agent.post(path).set('Origin', origin).type('form').send({ _csrf: csrfOf(form.text), newPassword: 'short', confirmPassword: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.text).toMatch(/id="new-password"[^>]*aria-invalid="true"/);
    const set = await agent.post(path).set('Origin', origin).type('form').send({ _csrf: csrfOf(form.text), newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(set.status).toBe(303);
    expect(set.headers.location).toBe('/console/enroll');
    expect((await agent.get('/console')).headers.location).toBe('/console/enroll'); // a password alone opens nothing
    expect((await agent.get(path)).status).toBe(410); // the link is used

    const enrol = await agent.get('/console/enroll').expect(200);
    expect(enrol.text).toContain('<svg');
    const app = authenticatorApp(secretOf(enrol.text));
    const wrong = await agent.post('/console/enroll').set('Origin', origin).type('form').send({ _csrf: csrfOf(enrol.text), code: app.wrongCode() });
    expect(wrong.status).toBe(400);
    expect(secretOf(wrong.text)).toBe(secretOf(enrol.text)); // the same key until confirmed
    const done = await agent.post('/console/enroll').set('Origin', origin).type('form').send({ _csrf: csrfOf(enrol.text), code: app.code() });
    expect(done.status).toBe(200);
    const codes = [...done.text.matchAll(/<li>([A-Z0-9]{5}-[A-Z0-9]{5})<\/li>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);
    const overview = await agent.get('/console').expect(200);
    expect(overview.text).toContain('<h1>Overview</h1>');
    expect((await agent.get('/console/enroll')).headers.location).toBe('/console'); // not shown again
    for (const code of codes) expect(overview.text).not.toContain(code);
    const [stored] = await db.query(`SELECT count(*)::int AS n FROM recovery_codes r JOIN users u ON u.id = r.user_id WHERE u.username = 'ada'`);
    expect(stored.n).toBe(10);
  });

  it('refuses a replayed code; accepts a recovery code once', async () => {
    const member = await staff.staff(tenantId, ['Auditor']);
    const agent = request.agent(admin.getHttpServer());
    const code = await staff.freshCode(member);
    expect((await staff.passwordStep(agent, member)).status).toBe(303);
    expect((await staff.codeStep(agent, '/console', code)).status).toBe(303);
    const again = request.agent(admin.getHttpServer());
    expect((await staff.passwordStep(again, member)).status).toBe(303);
    const replay = await staff.codeStep(again, '/console', code);
    expect(replay.status).toBe(401);
    expect(replay.text).toContain('each code works once');
    const recovery = await staff.codeStep(again, '/console', member.recoveryCodes[0]!);
    expect(recovery.status).toBe(303);
    const page = await again.get('/console').expect(200);
    expect(page.text).toContain('You signed in with a recovery code; 9 left');
    const third = request.agent(admin.getHttpServer());
    await staff.passwordStep(third, member);
    expect((await staff.codeStep(third, '/console', member.recoveryCodes[0]!)).status).toBe(401);
  });

  it('five wrong codes lock the account, and then the password step says so', async () => {
    const member = await staff.staff(tenantId, ['Auditor']);
    const agent = request.agent(admin.getHttpServer());
    await staff.passwordStep(agent, member);
    for (let n = 1; n <= 5; n++) {
      await db.query(`UPDATE users SET second_factor_locked_until = NULL WHERE id = $1`, [member.id]); // skip the short waits
      expect((await staff.codeStep(agent, '/console', member.app!.wrongCode())).status).toBe(401);
    }
    // Counted apart from wrong passwords (SECURITY 58).
    const [row] = await db.query(
      `SELECT failed_second_factor_count AS n, second_factor_locked_until > now() + interval '14 minutes' AS locked FROM users WHERE id = $1`,
      [member.id],
    );
    expect(row).toEqual({ n: 5, locked: true });
    const right = await staff.codeStep(agent, '/console', await staff.freshCode(member));
    expect(right.status).toBe(401);
    expect(right.text).toMatch(/locked for 1[45] minutes/);
    const retry = await staff.passwordStep(request.agent(admin.getHttpServer()), member);
    expect(retry.status).toBe(401);
    expect(retry.text).toMatch(/locked for 1[45] minutes/);
  });

  it('a person without a role cannot sign in; a password-only session reaches only the sign-in pages', async () => {
    const nobody = await staff.staff(tenantId, [], { enrol: false });
    const refused = await staff.passwordStep(request.agent(admin.getHttpServer()), nobody);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('holds no role');
    expect(refused.headers['set-cookie']?.toString() ?? '').not.toContain('gh_console=');

    const member = await staff.staff(tenantId, ['Administrator']);
    const agent = request.agent(admin.getHttpServer());
    expect((await staff.passwordStep(agent, member)).headers.location).toBe('/console/login/code?returnTo=%2Fconsole');
    for (const path of ['/console', '/console/staff', '/console/account', '/console/staff/invite']) {
      const res = await agent.get(path);
      expect([res.status, res.headers.location]).toEqual([303, '/console/login/code']);
    }
    const page = await agent.get('/console/login/code');
    const forced = await agent.post('/console/staff/invite').set('Origin', origin).type('form').send(formBody({ _csrf: csrfOf(page.text), email: 'eve@example.com', role: 'Administrator' }));
    expect(forced.status).toBe(303);
    expect(await db.query(`SELECT id FROM users WHERE email = 'eve@example.com'`)).toEqual([]);
  });

  it('the console cookie and the Web UI cookie never open each other', async () => {
    const member = await staff.staff(tenantId, ['Auditor'], { username: 'wanda' });
    const agent = request.agent(admin.getHttpServer());
    await staff.passwordStep(agent, member);
    const signedIn = await staff.codeStep(agent, '/console', await staff.freshCode(member));
    const consoleValue = /gh_console=([^;]+)/.exec(signedIn.headers['set-cookie']!.toString())![1]!;
    expect((await request(admin.getHttpServer()).get('/console').set('Cookie', `gh_console=${consoleValue}`)).status).toBe(200);
    const web = new WebClient(identity, 'http://localhost:3000', tenantId);
    const login = await web.login('wanda', STAFF_PASSWORD);
    const form = await login.agent.get('/login/code'); // staff pass their second factor in the Web UI too
    const passed = await login.agent
      .post('/login/code')
      .set('Origin', 'http://localhost:3000')
      .type('form')
      .send({ _csrf: csrfOf(form.text), code: await staff.freshCode(member), returnTo: '/docs' });
    const webValue = /gh_session=([^;]+)/.exec(passed.headers['set-cookie']!.toString())![1]!;
    expect((await request(identity.getHttpServer()).get('/docs').set('Cookie', `gh_session=${webValue}`)).status).toBe(200);
    const webIntoConsole = await request(admin.getHttpServer()).get('/console').set('Cookie', `gh_console=${webValue}`);
    expect([webIntoConsole.status, webIntoConsole.headers.location]).toEqual([303, '/console/login?returnTo=%2Fconsole']);
    const consoleIntoWeb = await request(identity.getHttpServer()).get('/docs').set('Cookie', `gh_session=${consoleValue}`);
    expect([consoleIntoWeb.status, consoleIntoWeb.headers.location]).toEqual([303, '/login?returnTo=/docs']);
  });

  it('serves any tenant under /t/{tenant}/console; a session of one tenant opens nothing of another', async () => {
    const [{ id: otherId }] = await db.query(`INSERT INTO tenants (slug, display_name) VALUES ('globex', 'Globex') RETURNING id`);
    const member = await staff.staff(otherId, ['Auditor']);
    const agent = await staff.signIn(member, '/t/globex/console');
    expect((await agent.get('/t/globex/console')).text).toContain('Globex');
    expect((await agent.get(`/t/${otherId}/console`)).status).toBe(200); // by id too
    const elsewhere = await agent.get('/t/acme/console');
    expect([elsewhere.status, elsewhere.headers.location]).toEqual([303, '/t/acme/console/login?returnTo=%2Ft%2Facme%2Fconsole']);
    expect((await agent.get('/t/nope/console/login')).status).toBe(404);
    await db.query(`DELETE FROM tenants WHERE id = $1`, [otherId]);
  });

  it('every console response: no-store, a CSP without unsafe-inline, frame-ancestors none', async () => {
    const member = await staff.staff(tenantId, ['Auditor']);
    const agent = await staff.signIn(member);
    for (const path of ['/console/login', '/console', '/console/assets/gatehouse.css', '/console/assets/console.js', '/console/no-such-page']) {
      const res = await agent.get(path);
      expect(res.headers['cache-control'], path).toBe('no-store');
      const csp = res.headers['content-security-policy'] as string;
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain('unsafe-inline');
    }
    const missing = await agent.get('/console/no-such-page');
    expect([missing.status, missing.type]).toEqual([404, 'text/html']);
    const cookie = (await staff.passwordStep(request.agent(admin.getHttpServer()), member)).headers['set-cookie']!.toString();
    expect(cookie).toMatch(/gh_console=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
  });

  it('ends a console session after 15 idle minutes and after 8 hours in any case; a new id at each step', async () => {
    const member = await staff.staff(tenantId, ['Auditor']);
    const agent = request.agent(admin.getHttpServer());
    const first = await staff.passwordStep(agent, member);
    const second = await staff.codeStep(agent, '/console', await staff.secondFactor(member));
    const ids = [first, second].map((res) => /gh_console=([^;]+)/.exec(res.headers['set-cookie']!.toString())![1]);
    expect(new Set(ids).size).toBe(2);
    expect((await agent.get('/console')).status).toBe(200);
    await db.query(`UPDATE sessions SET last_seen_at = now() - interval '14 minutes' WHERE user_id = $1 AND revoked_at IS NULL`, [member.id]);
    expect((await agent.get('/console')).status).toBe(200); // still alive, and touched
    await db.query(`UPDATE sessions SET last_seen_at = now() - interval '16 minutes' WHERE user_id = $1 AND revoked_at IS NULL`, [member.id]);
    expect((await agent.get('/console')).status).toBe(303);
    const again = await staff.signIn(member);
    await db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND revoked_at IS NULL`, [member.id]);
    expect((await again.get('/console')).status).toBe(303);
  });

  it('in production names the cookie __Host-gh_console and marks it Secure', () => {
    const production = testConfig(config.databaseUrl!, { nodeEnv: 'production', adminPublicUrl: 'https://admin.example' });
    const session = new ConsoleSession(production, admin.get(SessionService));
    const set: Array<[string, string, Record<string, unknown>]> = [];
    session.setCookie({ cookie: (...args: [string, string, Record<string, unknown>]) => set.push(args) } as never, 'token');
    expect(set).toEqual([['__Host-gh_console', 'token', { httpOnly: true, sameSite: 'lax', path: '/', secure: true }]]);
  });

  it('refuses a sign-in POST without the form token or from another site', async () => {
    const member = await staff.staff(tenantId, ['Auditor']);
    const agent = request.agent(admin.getHttpServer());
    const form = await agent.get('/console/login');
    const fields = { username: member.username, password: member.password, returnTo: '/console' };
    expect((await agent.post('/console/login').set('Origin', origin).type('form').send(fields)).status).toBe(403);
    const crossSite = await agent.post('/console/login').set('Origin', 'https://evil.example').type('form').send({ ...fields, _csrf: csrfOf(form.text) });
    expect(crossSite.status).toBe(403);
    const signedIn = await staff.signIn(member);
    const page = await signedIn.get('/console');
    const out = await signedIn.post('/console/logout').set('Origin', origin).type('form').send({ _csrf: 'wrong' });
    expect(out.status).toBe(403);
    expect((await signedIn.post('/console/logout').set('Origin', origin).type('form').send({ _csrf: csrfOf(page.text) })).status).toBe(303);
    expect((await signedIn.get('/console')).status).toBe(303);
  });
});
