import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginRepository, LoginService, SOURCE_FAILURE_LIMIT } from '@gatehouse/accounts';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { WEB_PASSWORD, WebClient, cookieOf, csrfOf } from './support/web-client.js';

const ORIGIN = 'http://localhost:3000';
const SPRAYER = '203.0.113.7';
const NEIGHBOUR = '203.0.113.8';

/**
 * Password spraying: guesses spread over many accounts lock none of them, so failed logins are
 * also counted per source address (behind a trusted proxy, its X-Forwarded-For).
 */
describe('web UI: failed logins per source address', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let web: WebClient;
  let tenantId: string;
  const logs = new LogCapture();

  async function loginFrom(source: string, username: string, password: string) {
    const agent = request.agent(app.getHttpServer());
    const form = await agent.get('/login').set('X-Forwarded-For', source).expect(200);
    const res = await agent
      .post('/login')
      .set('X-Forwarded-For', source)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: csrfOf(form.text), username, password, returnTo: '/docs' });
    return res;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, { publicUrl: ORIGIN, trustProxy: ['loopback'] });
    app = await createIdentityApp({ config, logDestination: logs });
    dataSource = app.get(DataSource);
    const [row] = await dataSource.query(
      `INSERT INTO tenants (slug, display_name) VALUES ('acme', 'Acme') RETURNING id`,
    );
    tenantId = row.id;
    web = new WebClient(app, ORIGIN, tenantId);
    await web.user('victim');
    await web.user('other');
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it(`blocks an address after ${SOURCE_FAILURE_LIMIT} failures on any accounts, even for the right password; others are not affected`, async () => {
    for (let i = 0; i < SOURCE_FAILURE_LIMIT; i++) {
      const username = i % 3 === 0 ? 'other' : `nobody-${i}`;
      expect((await loginFrom(SPRAYER, username, `guess number ${i} of the spray`)).status).toBe(401);
    }
    const blocked = await loginFrom(SPRAYER, 'victim', WEB_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(blocked.text).toContain('Too many failed logins from your network');
    expect(cookieOf(blocked, 'gh_session')).toBeUndefined();
    expect(logs.text).toContain(`login source blocked`);

    // The accounts themselves were not locked by the spray's block, and another address logs in.
    const [victim] = await dataSource.query(
      `SELECT failed_login_count, locked_until FROM users WHERE username = 'victim'`,
    );
    expect(victim).toEqual({ failed_login_count: 0, locked_until: null });
    const fine = await loginFrom(NEIGHBOUR, 'victim', WEB_PASSWORD);
    expect(fine.status).toBe(303);
    expect(cookieOf(fine, 'gh_session')).toBeDefined();
  }, 90_000); // CPU-bound (password hashing, or a browser), and slower while other test files share the two cores

  it('the block ends with its window, and the purge drops counters that are over', async () => {
    await dataSource.query(
      `UPDATE login_source_throttles SET window_started_at = now() - interval '16 minutes', blocked_until = now() - interval '1 minute'`,
    );
    expect(await app.get(LoginService).purgeStaleSourceThrottles()).toBeGreaterThanOrEqual(1);
    expect((await loginFrom(SPRAYER, 'victim', WEB_PASSWORD)).status).toBe(303);
    const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM login_source_throttles WHERE source = $1`, [
      SPRAYER,
    ]);
    expect(n).toBe(0);
  });

  it('a right password whose check ends after parallel failures blocked the address is refused', async () => {
    // The block lands while the password is being checked, as when a burst of guesses runs in parallel.
    const repository = app.get(LoginRepository);
    const findByUsername = repository.findByUsername.bind(repository);
    const source = '198.51.100.9';
    repository.findByUsername = async (tenant: string, username: string) => {
      const found = await findByUsername(tenant, username);
      await dataSource.query(
        `INSERT INTO login_source_throttles (tenant_id, source, failures, window_started_at, blocked_until)
         VALUES ($1, $2, $3, now(), now() + interval '10 minutes')`,
        [tenant, source, SOURCE_FAILURE_LIMIT],
      );
      return found;
    };
    const successes = () =>
      dataSource
        .query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'user.login.succeeded'`)
        .then((rows: Array<{ n: number }>) => rows[0]!.n);
    const before = await successes();
    try {
      const outcome = await app.get(LoginService).authenticate(tenantId, 'victim', WEB_PASSWORD, source);
      expect(outcome).toMatchObject({ ok: false, throttled: true });
    } finally {
      repository.findByUsername = findByUsername;
    }
    expect(await successes()).toBe(before);
  });
});
