import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessApps } from './support/access-apps.js';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { ConsoleFixtures, csrfOf } from './support/console.js';
import { cli } from './support/operator-cli.js';
import { authenticatorApp, secretOf } from './support/totp.js';
import { WebClient } from './support/web-client.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** The contact person's own mailbox, outside the company. */
const CARLAS_MAILBOX = 'carla.private@mail.example';
const CHOSEN = 'seven lanterns above the quiet river';

/**
 * Issue 37 H1, replayed: a contact person prepares a plain account (its password, a secret of a
 * client in its name, handovers, a Web UI session); an Administrator then gives that account a
 * role. None of what was prepared may work afterwards; the activation link is the only way in,
 * and the Administrator is told what was reset (SECURITY 55).
 */
describe('staff promotion: an existing account given its first role starts afresh', () => {
  const apps = new AccessApps();
  let admin: OperatorFixture;
  let carla: OperatorFixture;
  let desk: ConsoleFixtures;
  let web: WebClient;

  const call = (method: 'get' | 'post' | 'patch', path: string, token: string, body?: unknown) => apps.call(method, path, token, body);

  /** The token endpoint's status for the admin API with these credentials, once it is `expected` (or after 2 s). */
  async function adminTokenStatus(clientId: string, secret: string, expected: number): Promise<number> {
    const deadline = Date.now() + 2000;
    for (;;) {
      const res = await fetch(`${apps.publicUrl}/${apps.tenant.tenantId}/oauth2/v2.0/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: 'api://gatehouse-admin/.default' }),
      });
      if (res.status === expected || Date.now() > deadline) return res.status;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function handoverLink(clientId: string, recipientEmail: string): Promise<string> {
    const created = await call('post', `/clients/${clientId}/handovers`, carla.token, { recipientEmail });
    expect(created.status).toBe(201);
    const [mail] = (await apps.deliver()).filter((m) => m.envelopeTo[0] === recipientEmail);
    return /\/handover\/[A-Za-z0-9_-]+/.exec(mail!.text)![0];
  }

  /**
   * What a contact person can prepare for an account that holds no role: its generated password,
   * a secret and a federated credential of a client made in its name (by an Administrator, or before owners were theirs to
   * choose: a partner client to her), a handover of that client to herself, a handover of another
   * client addressed to the account, and a Web UI session.
   */
  async function prepare(username: string) {
    const email = `${username}@acme.example`;
    const user = await call('post', '/users', carla.token, { username, email, displayName: `${username} (new staff)`, password: 'generate' });
    const client = await call('post', '/clients', admin.token, { displayName: `${username} tool`, ownerUserId: user.body.id });
    const secret = await call('post', `/clients/${client.body.clientId}/secrets`, carla.token, {});
    const workload = { name: 'her-ci', issuer: 'https://token.actions.githubusercontent.com', subject: 'repo:carla/tools:ref:refs/heads/main' };
    const federated = await call('post', `/clients/${client.body.clientId}/federated-credentials`, carla.token, workload);
    expect([user.status, client.status, secret.status, federated.status]).toEqual([201, 201, 201, 201]);
    const partner = await call('post', '/clients', carla.token, { displayName: `${username} partner app` });
    const links = [await handoverLink(client.body.clientId, CARLAS_MAILBOX), await handoverLink(partner.body.clientId, email)];
    const session = await web.login(username, user.body.initialPassword);
    expect(session.res.status).toBe(303);
    return { id: user.body.id as string, username, email, password: user.body.initialPassword as string, clientId: client.body.clientId as string, secret: secret.body.secretText as string, links, session: session.agent };
  }

  /** Nothing the contact person prepared works any more. */
  async function expectNothingPreparedWorks(prepared: Awaited<ReturnType<typeof prepare>>) {
    expect((await desk.passwordStep(request.agent(apps.admin.getHttpServer()), prepared)).status).toBe(401);
    expect((await web.login(prepared.username, prepared.password)).res.status).toBe(401);
    expect(await web.alive(prepared.session)).toBe(false);
    expect(await adminTokenStatus(prepared.clientId, prepared.secret, 401)).toBe(401);
    expect((await call('get', `/clients/${prepared.clientId}/federated-credentials`, admin.token)).body).toEqual([]);
    for (const link of prepared.links) {
      const { post } = await apps.visit(link);
      expect((await post()).status, link).toBe(410);
    }
  }

  beforeAll(async () => {
    await apps.start({ trustProxy: ['loopback'] }, { listenAdmin: true });
    admin = await apps.fixtures.operator(apps.tenant, ['Administrator'], 'ada');
    carla = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'carla');
    desk = new ConsoleFixtures(apps.admin, apps.adminUrl!);
    web = new WebClient(apps.identity, apps.publicUrl, apps.tenant.tenantId);
  }, 60_000);

  afterAll(() => apps.stop());

  it('a contact person cannot put a client in anyone’s name: only an Administrator chooses owners', async () => {
    const plain = await call('post', '/users', carla.token, { username: 'pat', email: 'pat@acme.example', displayName: 'Pat' });
    const owned = await call('post', '/clients', carla.token, { displayName: 'in their name', ownerUserId: plain.body.id });
    expect([owned.status, owned.body.code]).toEqual([403, 'owner_requires_administrator']);
    const staff = await call('post', '/clients', carla.token, { displayName: 'in Ada’s name', ownerUserId: admin.user.id });
    expect(staff.status).toBe(403);
    expect(await apps.count(`SELECT count(*)::int AS n FROM api_clients WHERE display_name LIKE 'in %'`)).toBe(0);
    expect((await call('post', '/clients', admin.token, { displayName: 'in their name', ownerUserId: plain.body.id })).status).toBe(201);
  });

  it('`operator invite` of the address as Administrator: the old password, secret, handovers and session are dead; the link is the only way in', async () => {
    const prepared = await prepare('boss');
    expect(await adminTokenStatus(prepared.clientId, prepared.secret, 400)).toBe(400); // no role yet: no admin token
    const { stdout } = await cli(apps.config, ['operator', 'invite', '--tenant', 'default', '--email', prepared.email, '--role', 'Administrator', '--username', 'boss']);
    await expectNothingPreparedWorks(prepared);
    expect(stdout).toContain('Found boss <boss@acme.example> (Administrator) in tenant default.');
    expect(stdout).toContain('The account existed already, without a role.');
    expect(stdout).toContain('Its password no longer works.');
    expect(stdout).toContain('1 session ended.');
    expect(stdout).toContain(`Client "boss tool" (${prepared.clientId}), made in its name by someone else: 1 secret revoked, 0 certificates removed, 1 federated credential removed, 1 pending handover revoked.`);
    expect(stdout).toContain('1 pending handover addressed to it revoked.');

    const link = new RegExp(`${apps.adminUrl}(/console/activate/[A-Za-z0-9_-]+)`).exec(stdout)![1]!;
    const boss = request.agent(apps.admin.getHttpServer());
    const form = await boss.get(link).expect(200);
    await boss.post(link).set('Origin', apps.adminUrl!).type('form').send({ _csrf: csrfOf(form.text), newPassword: CHOSEN, confirmPassword: CHOSEN }).expect(303);
    const enrol = await boss.get('/console/enroll');
    const app = authenticatorApp(secretOf(enrol.text));
    await boss.post('/console/enroll').set('Origin', apps.adminUrl!).type('form').send({ _csrf: csrfOf(enrol.text), code: app.code() }).expect(200);
    expect((await boss.get('/console/staff')).status).toBe(200); // the person, and only they, is Administrator now
    const [event] = await apps.dataSource.query(`SELECT actor_type, details FROM audit_events WHERE action = 'user.credentials.reset' AND target_id = $1`, [prepared.id]);
    expect(event).toMatchObject({ actor_type: 'system', details: { reason: 'first_role', removed: ['password'] } });
  });

  it('Staff → Invite in the console does the same and tells the Administrator what was reset', async () => {
    const prepared = await prepare('chief');
    const ada = await desk.staff(apps.tenant.tenantId, ['Administrator'], { username: 'ada-console' });
    const agent = await desk.signIn(ada);
    const sent = await desk.post(agent, '/console/staff/invite', '/console/staff/invite', { email: prepared.email, role: 'Administrator', username: 'chief' });
    expect(sent.status).toBe(303);
    await expectNothingPreparedWorks(prepared);
    const page = (await agent.get(sent.headers.location!)).text;
    expect(page).toContain('The account existed already, without a role, so it starts afresh');
    expect(page).toContain('1 secret revoked');
    const mail = await apps.mailTo(prepared.email, /console access/);
    expect(mail.text).toContain(`${apps.adminUrl}/console/activate/`);
  });

  it('REST `PATCH /users/{id}` with a first role answers what was reset and mails the activation link', async () => {
    const prepared = await prepare('lead');
    const promoted = await call('patch', `/users/${prepared.id}`, admin.token, { roles: ['ContactPerson'] });
    expect(promoted.status).toBe(200);
    expect(promoted.body.accountReset).toMatchObject({
      passwordRemoved: true,
      sessionsEnded: 1,
      clients: [{ clientId: prepared.clientId, displayName: 'lead tool', secretsRevoked: 1, certificatesRemoved: 0, federatedCredentialsRemoved: 1, handoversRevoked: 1 }],
      handoversRevoked: 2,
      activation: { delivery: 'mail', expiresAt: expect.any(String) },
    });
    expect(JSON.stringify(promoted.body)).not.toMatch(/activate\//);
    await expectNothingPreparedWorks(prepared);
    expect((await apps.mailTo(prepared.email, /console access/)).text).toContain('/console/activate/');
    const again = await call('patch', `/users/${prepared.id}`, admin.token, { roles: ['ContactPerson', 'Auditor'] });
    expect(again.body.accountReset).toBeUndefined(); // only a first role starts afresh
  });

  it('credentials of a client the person created themselves stay; those made in their name by others go', async () => {
    const other = await apps.fixtures.operator(apps.tenant, ['Administrator'], 'otto');
    const own = await call('post', '/clients', other.token, { displayName: 'otto’s own tool', ownerUserId: other.user.id });
    const ownSecret = await call('post', `/clients/${own.body.clientId}/secrets`, other.token, {});
    expect(await adminTokenStatus(own.body.clientId, ownSecret.body.secretText, 200)).toBe(200);
    expect((await call('patch', `/users/${other.user.id}`, admin.token, { roles: [] })).status).toBe(200);
    const given = await call('post', '/clients', admin.token, { displayName: 'made for otto', ownerUserId: other.user.id });
    const givenSecret = await call('post', `/clients/${given.body.clientId}/secrets`, carla.token, {});
    const back = await call('patch', `/users/${other.user.id}`, admin.token, { roles: ['Administrator'] });
    expect(back.body.accountReset.clients.map((c: Json) => c.displayName)).toEqual(['made for otto']);
    expect(await adminTokenStatus(given.body.clientId, givenSecret.body.secretText, 401)).toBe(401);
    expect(await adminTokenStatus(own.body.clientId, ownSecret.body.secretText, 200)).toBe(200);
  });
});
