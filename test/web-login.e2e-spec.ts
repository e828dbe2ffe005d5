import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { UserService } from '@gatehouse/accounts';
import { SessionService } from '@gatehouse/sessions';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { UiTenantResolver } from '../apps/identity/src/web/ui-tenant.resolver.js';
import { WebSession } from '../apps/identity/src/web/web-session.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { WEB_PASSWORD, WebClient, cookieOf, csrfOf } from './support/web-client.js';

const ORIGIN = 'http://localhost:3000';
const PASSWORD = WEB_PASSWORD;

/** Security of login and sessions in the Web UI (SECURITY.md 17–27), over HTTP against real Postgres. */
describe('web UI: login and sessions', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let tenantId: string;
  const logs = new LogCapture();
  let web: WebClient;
  const user = (username: string) => web.user(username);
  const loginForm = (returnTo?: string) => web.loginForm(returnTo);
  const login = (username: string, password?: string, returnTo?: string) => web.login(username, password, returnTo);
  const alive = (agent: Parameters<WebClient['alive']>[0]) => web.alive(agent);

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createIdentityApp({ config: testConfig(database.url, { publicUrl: ORIGIN }), logDestination: logs });
    dataSource = app.get(DataSource);
    const [row] = await dataSource.query(
      `INSERT INTO tenants (slug, display_name) VALUES ('acme', 'Acme') RETURNING id`,
    );
    tenantId = row.id;
    web = new WebClient(app, ORIGIN, tenantId);
    expect((await app.get(UiTenantResolver).resolve())?.id).toBe(tenantId);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('shows the login prompt with a Log in button, CSP frame-ancestors none, no caching', async () => {
    const { page } = await loginForm('/docs');
    expect(page.text).toContain('name="username"');
    expect(page.text).toMatch(/<label for="password"/);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    const other = await request(app.getHttpServer()).get('/').expect(303);
    expect(other.headers.location).toBe('/docs');
  });

  it("answers a path nobody serves with the UI's 404 page for a browser, JSON for other clients", async () => {
    const page = await request(app.getHttpServer())
      .get('/no/such/page')
      .set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Page not found');
    expect(page.text).toContain('href="/login');
    const api = await request(app.getHttpServer()).get('/no/such/page').set('Accept', 'application/json');
    expect(api.status).toBe(404);
    expect(api.body).toMatchObject({ statusCode: 404 });
    expect((await request(app.getHttpServer()).get('/no/such/page')).headers['content-type']).toMatch(/json/);
  });

  it('answers an unknown user and a wrong password alike: same status, same page', async () => {
    await user('alice');
    const { agent, csrf } = await loginForm();
    const post = (username: string, password: string) =>
      agent
        .post('/login')
        .set('Origin', ORIGIN)
        .type('form')
        .send({ _csrf: csrf, username, password, returnTo: '/docs' });
    const unknown = await post('nobody', PASSWORD);
    const wrong = await post('alice', 'wrong password, long enough');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    // Alike but for the name typed and each form copy's one-time token.
    const alike = (text: string, name: string) => text.replace(name, 'X').replace(/name="_once"\s+value="[^"]+"/, '');
    expect(alike(unknown.text, 'nobody')).toBe(alike(wrong.text, 'alice'));
    expect(unknown.text).toContain('The username or password is incorrect');
    expect((await post('nul\u0000byte', PASSWORD)).status).toBe(401); // Postgres text holds no NUL: still the generic page
    expect(cookieOf(unknown, 'gh_session')).toBeUndefined();
  });

  it('refuses a POST without a valid CSRF token or from another origin', async () => {
    await user('bob');
    const { agent, csrf } = await loginForm();
    const form = { username: 'bob', password: PASSWORD };
    expect((await agent.post('/login').type('form').send(form)).status).toBe(403);
    expect(
      (
        await agent
          .post('/login')
          .type('form')
          .send({ ...form, _csrf: 'x'.repeat(43) })
      ).status,
    ).toBe(403);
    expect(
      (
        await request(app.getHttpServer())
          .post('/login')
          .type('form')
          .send({ ...form, _csrf: csrf })
      ).status,
    ).toBe(403);
    expect(
      (
        await agent
          .post('/login')
          .set('Origin', 'https://evil.example')
          .type('form')
          .send({ ...form, _csrf: csrf })
      ).status,
    ).toBe(403);
    expect(
      (
        await agent
          .post('/login')
          .set('Sec-Fetch-Site', 'cross-site')
          .type('form')
          .send({ ...form, _csrf: csrf })
      ).status,
    ).toBe(403);
    const { agent: signedIn } = await login('bob');
    expect((await signedIn.post('/logout').type('form').send({})).status).toBe(403);
    expect(
      (await signedIn.post('/logout').set('Origin', 'https://evil.example').type('form').send({ _csrf: csrf })).status,
    ).toBe(403);
    expect(await alive(signedIn)).toBe(true);
  });

  it('follows returnTo only to same-origin paths', async () => {
    await user('carol');
    for (const evil of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'http://localhost:80@evil.example',
      'javascript:alert(1)',
    ]) {
      const { page } = await loginForm(evil);
      expect(page.text).toContain('name="returnTo" value="/docs"');
      const { res } = await login('carol', PASSWORD, evil);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/docs');
    }
    const { res } = await login('carol', PASSWORD, '/invitations/abc?x=1');
    expect(res.headers.location).toBe('/invitations/abc?x=1');
  });

  it('sets a HttpOnly, SameSite=Lax, Path=/ session cookie without Domain, and a new id at each login', async () => {
    await user('dave');
    const { agent, res, csrf, csrfCookie } = await login('dave');
    const cookie = cookieOf(res, 'gh_session')!;
    expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toMatch(/Domain/i);
    expect(await alive(agent)).toBe(true);
    expect((await agent.get('/login?returnTo=/password')).headers.location).toBe('/password'); // already signed in
    const stale = cookie.split(';')[0]!;
    const again = await agent
      .post('/login')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: csrf, username: 'dave', password: PASSWORD });
    expect(again.status).toBe(303);
    expect(cookieOf(again, 'gh_session')!.split(';')[0]).not.toBe(stale);
    expect((await request(app.getHttpServer()).get('/password').set('Cookie', stale)).status).toBe(303); // the old id is dead
    const planted = await request(app.getHttpServer())
      .post('/login')
      .set('Cookie', [`gh_csrf=${csrfCookie}`, 'gh_session=planted-by-attacker'])
      .type('form')
      .send({ _csrf: csrf, username: 'dave', password: PASSWORD });
    expect(cookieOf(planted, 'gh_session')).not.toContain('planted-by-attacker');
    const stored: Array<{ id: Buffer }> = await dataSource.query(
      `SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.username = 'dave'`,
    );
    const raw = stale.split('=')[1]!;
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.some((row) => row.id.toString('base64url') === raw || row.id.toString() === raw)).toBe(false); // only hashes are stored
  });

  it('in production names the cookie __Host-gh_session and marks it Secure', () => {
    const config = testConfig(database.url, { nodeEnv: 'production', publicUrl: 'https://id.example' });
    const web = new WebSession(config, app.get(SessionService), app.get(UiTenantResolver));
    const set: Array<[string, string, Record<string, unknown>]> = [];
    web.startCookie(
      { cookie: (...args: [string, string, Record<string, unknown>]) => set.push(args) } as never,
      'token',
    );
    expect(set).toEqual([['__Host-gh_session', 'token', { httpOnly: true, sameSite: 'lax', path: '/', secure: true }]]);
  });

  it('logout ends every session of the user', async () => {
    await user('erin');
    const one = await login('erin');
    const two = await login('erin');
    expect(await alive(one.agent)).toBe(true);
    expect(await alive(two.agent)).toBe(true);
    const page = await one.agent.get('/password');
    const out = await one.agent
      .post('/logout')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: csrfOf(page.text) });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/login');
    expect(await alive(one.agent)).toBe(false);
    expect(await alive(two.agent)).toBe(false);
  });

  it('ends sessions after 30 idle minutes and after 8 hours in any case', async () => {
    await user('frank');
    const idle = await login('frank');
    const old = await login('frank');
    await dataSource.query(
      `UPDATE sessions SET last_seen_at = now() - interval '31 minutes' WHERE user_id = (SELECT id FROM users WHERE username = 'frank')`,
    );
    expect(await alive(idle.agent)).toBe(false);
    const fresh = await login('frank');
    expect(await alive(fresh.agent)).toBe(true);
    await dataSource.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE username = 'frank')`,
    );
    expect(await alive(fresh.agent)).toBe(false);
    expect(await alive(old.agent)).toBe(false);
    const redirect = await fresh.agent.get('/password');
    expect(redirect.status).toBe(303);
    expect(redirect.headers.location).toBe('/login?returnTo=/password');
  });

  it('disabling the account ends its sessions at once', async () => {
    const grace = await user('grace');
    const { agent } = await login('grace');
    expect(await alive(agent)).toBe(true);
    await app.get(UserService).disable(tenantId, SYSTEM_ACTOR, grace.id);
    expect(await alive(agent)).toBe(false);
    await app.get(UserService).enable(tenantId, SYSTEM_ACTOR, grace.id);
    expect(await alive(agent)).toBe(false);
    const again = await login('grace');
    expect(again.res.status).toBe(303);
  });
});
