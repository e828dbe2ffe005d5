import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { type ConsoleApp, type ConsoleFixtures, type StaffMember, csrfOf, formBody, startConsoleApp } from './support/console.js';
import { SmtpSink } from './support/smtp-sink.js';
import { authenticatorApp, secretOf } from './support/totp.js';

const NEW_PASSWORD = 'thirteen owls beneath the bridge';

/** Staff and My account pages over HTTP: the same use cases, permissions and audit as the REST API (SECURITY.md 45, 46). */
describe('console: staff and my account', () => {
  let app: ConsoleApp;
  let admin: INestApplication;
  let origin: string;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let ada: StaffMember;
  const sink = new SmtpSink();

  const ageSecondFactor = (userId: string) =>
    db.query(`UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1 AND kind = 'console'`, [userId]);
  const rolesOf = async (id: string) => ((await db.query(`SELECT roles FROM users WHERE id = $1`, [id]))[0] as { roles: string[] }).roles;

  beforeAll(async () => {
    await sink.start();
    app = await startConsoleApp({ config: { smtpUrl: sink.url } });
    ({ admin, origin, db, staff, tenantId } = app);
    ada = await staff.staff(tenantId, ['Administrator'], { username: 'ada' });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await sink.stop();
  });

  it('an Administrator invites staff: the person gets the link by mail and signs in with it', async () => {
    const agent = await staff.signIn(ada);
    const refused = await staff.post(agent, '/console/staff/invite', '/console/staff/invite', { email: 'not-an-address', role: '', displayName: 'Pat' });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/id="email"[^>]*value="not-an-address"[^>]*aria-invalid="true"/);
    expect(refused.text).toContain('Choose the role this person needs.');
    const sent = await staff.post(agent, '/console/staff/invite', '/console/staff/invite', { email: 'pat@acme.example', role: 'ContactPerson', displayName: 'Pat Partner' });
    expect(sent.status).toBe(303);
    const detail = await agent.get(sent.headers.location!);
    expect(detail.text).toContain('Invitation sent to pat@acme.example');
    expect(detail.text).toContain('not set up yet');
    await admin.get(OutboxDeliveryService).deliverDue();
    const [mail] = await sink.waitFor((m) => m.envelopeTo.includes('pat@acme.example'));
    const link = new RegExp(`${origin}(/console/activate/[A-Za-z0-9_-]+)`).exec(mail!.text)![1]!;
    expect(mail!.subject).toBe('Set up your Gatehouse console access');
    await admin.get(OutboxDeliveryService).deliverDue();
    expect(sink.messages.filter((m) => m.envelopeTo.includes('pat@acme.example'))).toHaveLength(1); // the console's link only

    const pat = request.agent(admin.getHttpServer());
    const form = await pat.get(link).expect(200);
    await pat.post(link).set('Origin', origin).type('form').send({ _csrf: csrfOf(form.text), newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }).expect(303);
    const enrol = await pat.get('/console/enroll');
    const app = authenticatorApp(secretOf(enrol.text));
    await pat.post('/console/enroll').set('Origin', origin).type('form').send({ _csrf: csrfOf(enrol.text), code: app.code() }).expect(200);
    const overview = await pat.get('/console').expect(200);
    expect(overview.text).toContain('Pat Partner');
    expect(overview.text).not.toContain(`href="/console/staff"`); // the navigation shows what the roles allow
    const [event] = await db.query(
      `SELECT actor_id, actor_client_id, details FROM audit_events WHERE action = 'user.staff_invited' AND target_id = (SELECT id::text FROM users WHERE username = 'pat')`,
    );
    expect(event).toMatchObject({ actor_id: ada.id, actor_client_id: null, details: { role: 'ContactPerson', delivery: 'mail' } });
  });

  it('a forced URL outside the roles answers 403 and changes nothing', async () => {
    const carla = await staff.staff(tenantId, ['ContactPerson']);
    const agent = await staff.signIn(carla);
    expect((await agent.get('/console/staff')).status).toBe(403);
    const page = await agent.get('/console');
    const forced = await agent.post('/console/staff/invite').set('Origin', origin).type('form').send(formBody({ _csrf: csrfOf(page.text), email: 'mallory@example.com', role: 'Administrator' }));
    expect(forced.status).toBe(403);
    expect(forced.text).toContain('Nothing was changed');
    const toRoles = await agent.post(`/console/staff/${carla.id}/roles`).set('Origin', origin).type('form').send(formBody({ _csrf: csrfOf(page.text), roles: ['Administrator'] }));
    expect(toRoles.status).toBe(403);
    expect(await rolesOf(carla.id)).toEqual(['ContactPerson']);
    expect(await db.query(`SELECT id FROM users WHERE email = 'mallory@example.com'`)).toEqual([]);
  });

  it('changing roles asks for a fresh second factor, then continues the same change', async () => {
    const ivan = await staff.staff(tenantId, ['Auditor']);
    const agent = await staff.signIn(ada);
    await ageSecondFactor(ada.id);
    const asked = await staff.post(agent, `/console/staff/${ivan.id}`, `/console/staff/${ivan.id}/roles`, { roles: ['Auditor', 'ITDepartment'] });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Confirm it is you');
    expect(asked.text).toContain('<input type="hidden" name="roles" value="ITDepartment" />');
    expect(await rolesOf(ivan.id)).toEqual(['Auditor']);
    const wrong = await agent.post(`/console/staff/${ivan.id}/roles`).set('Origin', origin).type('form')
      .send(formBody({ _csrf: csrfOf(asked.text), roles: ['Auditor', 'ITDepartment'], _stepup_code: ada.app!.wrongCode() }));
    expect(wrong.text).toContain('That code did not work');
    expect(await rolesOf(ivan.id)).toEqual(['Auditor']);
    const done = await agent.post(`/console/staff/${ivan.id}/roles`).set('Origin', origin).type('form')
      .send(formBody({ _csrf: csrfOf(asked.text), roles: ['Auditor', 'ITDepartment'], _stepup_code: await staff.secondFactor(ada) }));
    expect(done.status).toBe(303);
    expect(await rolesOf(ivan.id)).toEqual(['Auditor', 'ITDepartment']);
    expect((await agent.get(done.headers.location!)).text).toContain('now holds: Auditor and IT department');
    const [event] = await db.query(`SELECT actor_id, actor_client_id FROM audit_events WHERE action = 'user.updated' AND target_id = $1`, [ivan.id]);
    expect(event).toEqual({ actor_id: ada.id, actor_client_id: null }); // the person, as the REST use case records it
    const again = await staff.post(agent, `/console/staff/${ivan.id}`, `/console/staff/${ivan.id}/roles`, { roles: ['Auditor'] });
    expect(again.status).toBe(303); // fresh now: no second prompt
  });

  it('keeps the last Administrator, with the form as typed', async () => {
    const agent = await staff.signIn(ada);
    const others = await db.query(`SELECT id FROM users WHERE 'Administrator' = ANY(roles) AND id <> $1`, [ada.id]);
    expect(others).toEqual([]);
    const refused = await staff.post(agent, `/console/staff/${ada.id}`, `/console/staff/${ada.id}/roles`, { roles: ['Auditor'] });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('at least one active Administrator');
    expect(refused.text).toMatch(/value="Auditor"\s+checked/);
    expect(await rolesOf(ada.id)).toEqual(['Administrator']);
  });

  it("resets a person's second factor: authenticator and codes gone, sessions ended, audited", async () => {
    const lost = await staff.staff(tenantId, ['Auditor']);
    const theirs = await staff.signIn(lost);
    const agent = await staff.signIn(ada);
    expect((await agent.get(`/console/staff/${lost.id}/reset-mfa`)).text).toContain('ends all their sessions');
    const done = await staff.post(agent, `/console/staff/${lost.id}/reset-mfa`, `/console/staff/${lost.id}/reset-mfa`, {});
    expect(done.status).toBe(303);
    expect(await db.query(`SELECT id FROM totp_factors WHERE user_id = $1`, [lost.id])).toEqual([]);
    expect(await db.query(`SELECT id FROM recovery_codes WHERE user_id = $1`, [lost.id])).toEqual([]);
    expect((await theirs.get('/console')).status).toBe(303);
    const [event] = await db.query(`SELECT actor_id FROM audit_events WHERE action = 'user.mfa.reset' AND target_id = $1`, [lost.id]);
    expect(event.actor_id).toBe(ada.id);
    const next = request.agent(admin.getHttpServer());
    expect((await staff.passwordStep(next, lost)).headers.location).toMatch(/^\/console\/enroll/);
  });

  it('My account: a wrong current password counts and is audited; a change ends the other sessions; recovery codes renewed', async () => {
    const kim = await staff.staff(tenantId, ['ITDepartment']);
    const other = await staff.signIn(kim);
    const agent = await staff.signIn(kim);
    const wrong = await staff.post(agent, '/console/account/password', '/console/account/password', {
      currentPassword: 'not my password at all',
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(/id="current-password"[^>]*aria-invalid="true"/);
    expect((await db.query(`SELECT failed_login_count AS n FROM users WHERE id = $1`, [kim.id]))[0].n).toBe(1);
    expect(await db.query(`SELECT 1 FROM audit_events WHERE action = 'user.password.change_failed' AND target_id = $1`, [kim.id])).toHaveLength(1);
    const changed = await staff.post(agent, '/console/account/password', '/console/account/password', {
      currentPassword: kim.password,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect([changed.status, changed.headers.location]).toEqual([303, '/console/account']);
    const page = await agent.get('/console/account');
    expect(page.text).toContain('Your password has been changed');
    expect((await other.get('/console')).status).toBe(303);

    await ageSecondFactor(kim.id);
    const asked = await staff.post(agent, '/console/account', '/console/account/recovery-codes', {});
    expect(asked.text).toContain('Confirm it is you');
    const codes = await agent.post('/console/account/recovery-codes').set('Origin', origin).type('form')
      .send({ _csrf: csrfOf(asked.text), _stepup_code: await staff.secondFactor(kim) });
    expect(codes.status).toBe(200);
    const fresh = [...codes.text.matchAll(/<li>([A-Z0-9]{5}-[A-Z0-9]{5})<\/li>/g)].map((m) => m[1]!);
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => kim.recoveryCodes.includes(code))).toBe(false);
    kim.recoveryCodes = fresh;
    const third = await staff.signIn({ ...kim, password: NEW_PASSWORD });
    const ended = await staff.post(agent, '/console/account', '/console/account/sessions/end-others', {});
    expect((await agent.get(ended.headers.location!)).text).toContain('Signed out 1 other session.');
    expect((await third.get('/console')).status).toBe(303);
    expect((await agent.get('/console')).status).toBe(200);
  });
});
