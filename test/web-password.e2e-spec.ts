import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { UserCredentialsService } from '@gatehouse/accounts';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { WEB_PASSWORD, WebClient, cookieOf, csrfOf } from './support/web-client.js';

const ORIGIN = 'http://localhost:3000';
const NEW_PASSWORD = 'violet kettle drums at dawn';
/** A page with the username, the per-form CSRF token and the lock's end blanked out. */
const generic = (text: string, username: string) =>
  text
    .replace(username, 'X')
    .replace(/name="_csrf" value="[^"]+"/, '')
    .replace(/name="_once"\s+value="[^"]+"/, '') // each copy of a form has its own one-time token
    .replace(/\d+ minutes \(until [^)]*\)/, 'N minutes');

/** Lockout, forced password change and the password policy in the Web UI (SECURITY.md 18, 20, 21). */
describe('web UI: lockout and passwords', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let web: WebClient;
  const logs = new LogCapture();

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createIdentityApp({ config: testConfig(database.url, { publicUrl: ORIGIN }), logDestination: logs });
    dataSource = app.get(DataSource);
    const [row] = await dataSource.query(
      `INSERT INTO tenants (slug, display_name) VALUES ('acme', 'Acme') RETURNING id`,
    );
    web = new WebClient(app, ORIGIN, row.id);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  // Every test signs in from 127.0.0.1: the failures of one test must not block the address for the next.
  beforeEach(async () => {
    await dataSource.query('DELETE FROM login_source_throttles');
  });

  const state = async (username: string) =>
    (
      await dataSource.query(
        `SELECT failed_login_count AS failures, locked_until > now() AS locked, must_change_password AS "mustChange" FROM users WHERE username = $1`,
        [username],
      )
    )[0] as { failures: number; locked: boolean | null; mustChange: boolean };

  it('slows down, then locks an account for 15 minutes after 5 failures, and says so for an unknown name alike', async () => {
    await web.user('lena');
    const skipShortWaits = () =>
      Promise.all([
        dataSource.query(`UPDATE users SET locked_until = NULL WHERE username = 'lena'`),
        dataSource.query(`UPDATE login_name_locks SET locked_until = NULL WHERE username_normalized = 'nobody-at-all'`),
      ]);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await skipShortWaits();
      const known = (await web.login('lena', 'wrong password attempt')).res;
      const unknown = (await web.login('nobody-at-all', 'wrong password attempt')).res;
      expect([known.status, unknown.status]).toEqual([401, 401]);
      expect(generic(known.text, 'lena')).toBe(generic(unknown.text, 'nobody-at-all'));
      expect((await state('lena')).failures).toBe(attempt);
      expect((await state('lena')).locked).toBe(attempt >= 3 ? true : null);
      expect(known.text).toContain(attempt < 5 ? 'username or password is incorrect' : 'locked for 15 minutes');
    }
    const [{ minutes }] = await dataSource.query(
      `SELECT round(extract(epoch FROM locked_until - now()) / 60) AS minutes FROM users WHERE username = 'lena'`,
    );
    expect(Number(minutes)).toBe(15);
    const right = await web.login('lena', WEB_PASSWORD);
    const stranger = await web.login('nobody-at-all', WEB_PASSWORD);
    expect(right.res.status).toBe(401); // locked: even the right password is refused, with the same page
    expect(generic(right.res.text, 'lena')).toBe(generic(stranger.res.text, 'nobody-at-all'));
    expect(right.res.text).toMatch(/locked for 1[45] minutes \(until \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    expect((await state('lena')).failures).toBe(5); // attempts during a lock do not count
    const [names] = await dataSource.query(`SELECT failed_login_count AS n FROM login_name_locks WHERE username_normalized = 'nobody-at-all'`);
    expect(names.n).toBe(5);
    await dataSource.query(`UPDATE users SET locked_until = now() - interval '1 second' WHERE username = 'lena'`);
    expect((await web.login('lena', WEB_PASSWORD)).res.status).toBe(303);
    expect((await state('lena')).failures).toBe(0); // a success resets
    const audit = await dataSource.query(
      `SELECT action, count(*)::int AS n FROM audit_events WHERE target_id = (SELECT id::text FROM users WHERE username = 'lena') GROUP BY action ORDER BY action`,
    );
    expect(audit).toEqual([
      { action: 'user.created', n: 1 },
      { action: 'user.login.failed', n: 6 },
      { action: 'user.login.succeeded', n: 1 },
    ]);
  });

  it('locks for a day from the 100th consecutive failure', async () => {
    await web.user('max');
    await dataSource.query(`UPDATE users SET failed_login_count = 99 WHERE username = 'max'`);
    await web.login('max', 'wrong password attempt');
    const [{ hours }] = await dataSource.query(
      `SELECT round(extract(epoch FROM locked_until - now()) / 3600) AS hours FROM users WHERE username = 'max'`,
    );
    expect(Number(hours)).toBe(24);
  });

  it('forces a change of an issued password before anything else, and ends the other sessions', async () => {
    await web.user('nora', { issued: true });
    const other = await web.login('nora');
    const { agent, res } = await web.login('nora', WEB_PASSWORD, '/invitations/abc');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/password?returnTo=/invitations/abc');
    const elsewhere = await agent.get('/docs');
    expect(elsewhere.status).toBe(303);
    expect(elsewhere.headers.location).toBe('/password?returnTo=/docs');
    const page = await agent.get('/password?returnTo=/invitations/abc').expect(200);
    expect(page.text).toContain('Choose your own password');
    const change = (fields: Record<string, string>) =>
      agent
        .post('/password')
        .set('Origin', ORIGIN)
        .type('form')
        .send({ _csrf: csrfOf(page.text), returnTo: '/invitations/abc', currentPassword: WEB_PASSWORD, ...fields });
    const cases: Array<[string, string, string]> = [
      ['short', 'short', 'at least 15 characters'],
      ['passwordpassword123', 'passwordpassword123', 'commonly used passwords'],
      ['nora likes long walks', 'nora likes long walks', 'must not contain &quot;nora&quot;'],
      ['acme rocket sled pilot', 'acme rocket sled pilot', 'must not contain &quot;acme&quot;'],
      [NEW_PASSWORD, NEW_PASSWORD + ' ', 'do not match'],
    ];
    for (const [next, confirm, reason] of cases) {
      const refused = await change({ newPassword: next, confirmPassword: confirm });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain(reason);
    }
    const wrongCurrent = await change({
      currentPassword: 'not the current one!',
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.text).toContain('current password is incorrect');
    expect((await agent.post('/password').type('form').send({ currentPassword: WEB_PASSWORD })).status).toBe(403);
    const done = await change({ newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/invitations/abc');
    expect(await state('nora')).toMatchObject({ mustChange: false });
    expect(cookieOf(done, 'gh_session')).toBeTruthy(); // a fresh session id after the change
    expect(await web.alive(agent)).toBe(true);
    expect(await web.alive(other.agent)).toBe(false);
    const before = cookieOf(res, 'gh_session')!.split(';')[0]!;
    expect((await request(app.getHttpServer()).get('/password').set('Cookie', before)).status).toBe(303);
    expect((await web.login('nora', WEB_PASSWORD)).res.status).toBe(401);
    expect((await web.login('nora', NEW_PASSWORD)).res.headers.location).toBe('/docs');
    const notices = await dataSource.query(
      `SELECT e.template FROM emails e JOIN users u ON u.email = e.to_address WHERE u.username = 'nora'`,
    );
    expect(notices).toEqual([{ template: 'password-changed' }]);
    const [{ hash }] = await dataSource.query(`SELECT password_hash AS hash FROM users WHERE username = 'nora'`);
    expect(hash).toMatch(/^\$argon2id\$/);
  });

  it('a wrong current password on /password counts toward the same lockout as a login, is refused while locked, and is audited', async () => {
    await web.user('rita');
    const { agent } = await web.login('rita');
    const page = await agent.get('/password').expect(200);
    const change = (current: string) =>
      agent
        .post('/password')
        .set('Origin', ORIGIN)
        .type('form')
        .send({ _csrf: csrfOf(page.text), currentPassword: current, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    const skipShortWait = () => dataSource.query(`UPDATE users SET locked_until = NULL WHERE username = 'rita'`);
    for (let attempt = 1; attempt <= 2; attempt++) {
      await skipShortWait();
      expect((await web.login('rita', 'wrong password attempt')).res.status).toBe(401);
    }
    for (let attempt = 3; attempt <= 5; attempt++) {
      await skipShortWait();
      const wrong = await change('not the current one!');
      expect((await state('rita')).failures).toBe(attempt); // one counter for both doors
      expect(wrong.status).toBe(attempt < 5 ? 400 : 429);
    }
    const lockedPage = await change('not the current one!');
    expect(lockedPage.status).toBe(429);
    expect(lockedPage.text).toMatch(/locked for .* \(until \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    expect(Number(lockedPage.headers['retry-after'])).toBeGreaterThan(14 * 60);
    const right = await change(WEB_PASSWORD); // while locked even the right current password is not checked
    expect(right.status).toBe(429);
    expect((await state('rita')).failures).toBe(5);
    expect((await web.login('rita', WEB_PASSWORD)).res.status).toBe(401);
    const audit = await dataSource.query(
      `SELECT action, details->>'locked' AS locked, count(*)::int AS n FROM audit_events
        WHERE target_id = (SELECT id::text FROM users WHERE username = 'rita') AND action LIKE 'user.%failed'
        GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(audit).toEqual([
      { action: 'user.login.failed', locked: 'false', n: 2 },
      { action: 'user.login.failed', locked: 'true', n: 1 },
      { action: 'user.password.change_failed', locked: 'false', n: 3 },
      { action: 'user.password.change_failed', locked: 'true', n: 2 },
    ]);
    await dataSource.query(`UPDATE users SET locked_until = now() - interval '1 second' WHERE username = 'rita'`);
    expect((await change(WEB_PASSWORD)).status).toBe(303);
    expect((await state('rita')).failures).toBe(0);
  });

  it('verifies the whole password (no 72-byte truncation) and takes as long for an unknown user', async () => {
    const long = 'a long passphrase that goes on and on, well past seventy-two bytes of UTF-8 text: ünïcödé included';
    await web.user('olga', { password: long });
    expect((await web.login('olga', long.slice(0, -1) + 'X')).res.status).toBe(401);
    expect((await web.login('olga', long)).res.status).toBe(303);
    await web.user('petra');
    const median = async (username: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const { agent, csrf } = await web.loginForm();
        const started = performance.now();
        await agent
          .post('/login')
          .set('Origin', ORIGIN)
          .type('form')
          .send({ _csrf: csrf, username, password: 'wrong but long enough' });
        times.push(performance.now() - started);
        await dataSource.query(`UPDATE users SET locked_until = NULL, failed_login_count = 0 WHERE username = 'petra'`);
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    const unknown = await median('nobody-here');
    const known = await median('petra');
    expect(known / unknown).toBeGreaterThan(0.5); // both verify one argon2id hash (a dummy for unknown users)
    expect(known / unknown).toBeLessThan(2);
  });

  it('an admin password reset ends every session of the user', async () => {
    const quinn = await web.user('quinn');
    const { agent } = await web.login('quinn');
    expect(await web.alive(agent)).toBe(true);
    await app.get(UserCredentialsService).resetPassword(web.tenantId, SYSTEM_ACTOR, quinn.id, 'generate');
    expect(await web.alive(agent)).toBe(false);
  });

  it('leaves the token endpoint reading its own raw body', async () => {
    const res = await request(app.getHttpServer())
      .post('/acme/oauth2/v2.0/token')
      .type('form')
      .send('grant_type=client_credentials&client_id=x&client_secret=y&scope=api%3A%2F%2Fx%2F.default');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error).toBeTruthy();
  });
});
