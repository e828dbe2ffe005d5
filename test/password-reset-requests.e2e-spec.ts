import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordResetService, RESET_SOURCE_LIMIT, UserService } from '@gatehouse/accounts';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { AccessApps } from './support/access-apps.js';
import { ConsoleFixtures, csrfOf } from './support/console.js';
import { WebClient } from './support/web-client.js';

const NEW_PASSWORD = 'copper kites above the dunes';
/** A page with the per-form CSRF token blanked out. */
/** A page but for its tokens: the session's CSRF token and each form copy's one-time token. */
const generic = (text: string) => text.replace(/name="_csrf" value="[^"]+"/g, '').replace(/name="_once"\s+value="[^"]+"/g, '');

/**
 * "Forgot your password?" over HTTP: the same answer and the same work for a name that is known and
 * one that is not (SECURITY 48's rule for the request form, here for accounts), the throttles per
 * source and per address, and a person with a role still needing their second factor afterwards.
 */
describe('password reset requests', () => {
  const apps = new AccessApps();
  let identityDb: DataSource;
  let staff: ConsoleFixtures;
  let statements: string[] | null = null;

  const process = () => apps.identity.get(PasswordResetService).processDue();
  const resetMailsTo = (address: string) => apps.sink.messages.filter((m) => m.envelopeTo.includes(address) && m.subject === 'Reset your password');
  const rows = async () =>
    (await apps.dataSource.query(
      `SELECT (SELECT count(*) FROM password_reset_requests)::int AS queued, (SELECT count(*) FROM account_links)::int AS links,
              (SELECT count(*) FROM emails)::int AS mails, (SELECT count(*) FROM audit_events)::int AS events`,
    ))[0] as Record<string, number>;

  /** One request as a browser without JavaScript sends it: the form page, then its POST; with the SQL it ran. */
  async function ask(identifier: string, source = '192.0.2.10') {
    const { page, post } = await apps.visit('/password-reset', source);
    expect(page.status).toBe(200);
    statements = [];
    const res = await post({ identifier });
    const ran = statements;
    statements = null;
    return { res, ran };
  }

  beforeAll(async () => {
    await apps.start({ trustProxy: ['loopback'] });
    identityDb = apps.identity.get(DataSource);
    const logger = identityDb.logger;
    const original = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      statements?.push(query);
      return original(query, parameters, runner);
    };
    const web = new WebClient(apps.identity, apps.publicUrl, apps.tenant.tenantId);
    for (const name of ['pat', 'quinn', 'dora']) await web.user(name);
    await apps.dataSource.query(`UPDATE users SET status = 'disabled' WHERE username = 'dora'`);
    staff = new ConsoleFixtures(apps.admin, apps.config.adminPublicUrl);
  }, 60_000);

  afterAll(() => apps.stop());

  it('answers a known and an unknown username or address alike, doing the same work: one queued request, nothing else', async () => {
    await ask('warm-up'); // the first request of an app loads what later ones find cached
    await process();
    const answers = [];
    for (const identifier of ['pat', 'nobody-here', 'pat@example.com', 'nobody@example.com', 'dora']) {
      const before = await rows();
      const { res, ran } = await ask(identifier);
      const after = await rows();
      answers.push({ status: res.status, location: res.headers.location, body: generic(res.text), ran });
      expect({ ...after, queued: after.queued - 1 }).toEqual(before); // exactly one row more, and only there
    }
    expect(answers[0]!.ran.join('\n')).not.toMatch(/\busers\b/); // no account is looked up while the person waits
    expect(answers[0]!.ran.filter((sql) => /password_reset_requests/.test(sql))).toHaveLength(1);
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ status: 303, location: '/password-reset/sent' });
    const sent = await apps.visit('/password-reset/sent');
    expect(sent.page.text).toContain('If an account matches what you entered');
  });

  it('the worker mails a link only for the accounts that exist and are active, and audits each one', async () => {
    expect(await process()).toBe(2); // "pat" and "pat@example.com"; nobody, and disabled "dora", get nothing
    await apps.deliver();
    expect(resetMailsTo('pat@example.com')).toHaveLength(2);
    expect(resetMailsTo('dora@example.com')).toHaveLength(0);
    expect(await apps.count(`SELECT count(*)::int AS n FROM password_reset_requests`)).toBe(0);
    const events = await apps.dataSource.query(
      `SELECT actor_type AS actor, source_address AS source FROM audit_events WHERE action = 'user.password.reset_requested'`,
    );
    expect(events).toEqual([
      { actor: 'system', source: '192.0.2.10' },
      { actor: 'system', source: '192.0.2.10' },
    ]);
    const statuses = [];
    for (const mail of resetMailsTo('pat@example.com')) {
      statuses.push((await apps.visit(new URL(apps.linkIn(mail, 'password-reset')).pathname)).page.status);
    }
    expect(statuses.sort()).toEqual([200, 410]); // only the newest link works
  });

  it('mails one address at most three links an hour; further requests get the same answer and are audited', async () => {
    for (const identifier of ['quinn', 'quinn@example.com', 'QUINN', 'Quinn@Example.com']) {
      expect((await ask(identifier, '192.0.2.20')).res.status).toBe(303);
    }
    expect(await process()).toBe(3);
    await apps.deliver();
    expect(resetMailsTo('quinn@example.com')).toHaveLength(3);
    expect(await apps.count(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'user.password.reset_throttled'`)).toBe(1);
  });

  it(`refuses the ${RESET_SOURCE_LIMIT + 1}th request of a quarter hour from one source, known name or not, with Retry-After`, async () => {
    for (let i = 0; i < RESET_SOURCE_LIMIT; i++) expect((await ask(`someone-${i}`, '192.0.2.30')).res.status).toBe(303);
    const known = (await ask('pat', '192.0.2.30')).res;
    const unknown = (await ask('nobody-here', '192.0.2.30')).res;
    expect([known.status, unknown.status]).toEqual([429, 429]);
    expect(Number(known.headers['retry-after'])).toBeGreaterThan(0);
    expect(generic(known.text).replace('value="pat"', '')).toBe(generic(unknown.text).replace('value="nobody-here"', ''));
    expect(known.text).toContain('Too many requests from your network');
    expect((await ask('pat', '192.0.2.31')).res.status).toBe(303); // another source is not held back
    await process();
  });

  it('a person with a role resets the password, and the console still asks for their second factor', async () => {
    const sam = await staff.staff(apps.tenant.tenantId, ['Administrator'], { username: 'sam' });
    const console_ = await staff.signIn(sam);
    expect((await console_.get('/console')).status).toBe(200);
    const seen = apps.sink.messages.length;
    await ask('sam', '192.0.2.40');
    await process();
    await apps.deliver();
    const mail = apps.sink.messages.slice(seen).find((m) => m.envelopeTo.includes('sam@example.com'))!;
    const { page, post } = await apps.visit(new URL(apps.linkIn(mail, 'password-reset')).pathname, '192.0.2.40');
    expect(page.text).toMatch(/the change needs your second factor too/);
    const typed = { username: 'sam', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
    const withoutCode = await post({ ...typed, code: '000000' }); // the password alone never changes it
    expect([withoutCode.status, withoutCode.text]).toEqual([401, expect.stringContaining('That code did not work')]);
    expect((await console_.get('/console')).status).toBe(200); // nothing changed: the session lives on
    const done = await post({ ...typed, code: await staff.secondFactor(sam) });
    expect(done.status).toBe(200);
    expect((await console_.get('/console')).status).toBe(303); // the console session ended
    const [factor] = await apps.dataSource.query(`SELECT confirmed_at FROM totp_factors WHERE user_id = $1`, [sam.id]);
    expect(factor.confirmed_at).not.toBeNull();
    const agent = request.agent(apps.admin.getHttpServer());
    const signedIn = await staff.passwordStep(agent, { username: 'sam', password: NEW_PASSWORD });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toMatch(/^\/console\/login\/code\?/);
    const form = await agent.get('/console/login/code');
    expect(csrfOf(form.text)).not.toBe('');
    expect((await agent.get('/console/users')).status).toBe(303); // the password alone opens nothing
  });

  it('staff invited to the console who never set a password get no link: their invitation is the way in', async () => {
    await staff.staff(apps.tenant.tenantId, ['Auditor'], { username: 'ivy', enrol: false });
    await apps.dataSource.query(`UPDATE users SET password_hash = NULL WHERE username = 'ivy'`);
    expect((await ask('ivy', '192.0.2.50')).res.status).toBe(303);
    expect(await process()).toBe(0);
  });

  it('a disabled account cannot use a link it was sent before', async () => {
    const [quinn] = await apps.dataSource.query(`SELECT id FROM users WHERE username = 'quinn'`);
    const [, , newest] = resetMailsTo('quinn@example.com');
    await apps.admin.get(UserService).disable(apps.tenant.tenantId, SYSTEM_ACTOR, quinn.id);
    expect((await apps.visit(new URL(apps.linkIn(newest!, 'password-reset')).pathname)).page.status).toBe(404);
  });
});
