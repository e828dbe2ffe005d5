import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { makeCertificate, thumbprintOf } from './support/client-certificates.js';
import { type ConsoleApp, type StaffMember, startConsoleApp } from './support/console.js';
import { isStepUpPrompt, stepUpThenContinue } from './support/step-up.js';

/**
 * Issue 37 M2: a session thief could send a handover to any address, add their own certificate,
 * invite staff (or give an existing person the Administrator role through the invitation) and
 * register a passkey, all without the second factor that "New secret" asks for. Each now asks for
 * a second factor younger than five minutes, inline, and then continues the same action with the
 * form as it was typed (SECURITY 57).
 */
describe('step-up before every way a credential or a way in can leave', () => {
  let app: ConsoleApp;
  let carla: StaffMember;
  let ada: StaffMember;
  let clientId: string;

  const count = async (sql: string, params: unknown[] = []) => ((await app.db.query(sql, params))[0] as { n: number }).n;
  const expectNone = (sql: string, params: unknown[]) => async () => expect(await count(sql, params)).toBe(0);

  beforeAll(async () => {
    app = await startConsoleApp();
    carla = await app.staff.staff(app.tenantId, ['ContactPerson'], { username: 'carla' });
    ada = await app.staff.staff(app.tenantId, ['Administrator'], { username: 'ada' });
    const client = await app.admin.get(ClientService).create(app.tenantId, SYSTEM_ACTOR, { displayName: 'Partner sync', contactEmail: 'ops@partner.example' });
    clientId = client.clientId;
  }, 60_000);

  afterAll(() => app?.close());

  it('a handover to any address: the prompt, nothing sent, then the handover to the address as typed', async () => {
    const agent = await app.staff.signIn(carla);
    const handovers = `SELECT count(*)::int AS n FROM credential_handovers h JOIN api_clients c ON c.id = h.api_client_id WHERE c.client_id = $1`;
    const continued = await stepUpThenContinue(app.staff, agent, carla, {
      form: `/console/clients/${clientId}/handovers/new`,
      action: `/console/clients/${clientId}/handovers`,
      fields: { recipientEmail: 'someone@elsewhere.example', expiresInHours: '24' },
      unchanged: expectNone(handovers, [clientId]),
    });
    expect(continued.status).toBe(303);
    const [sent] = await app.db.query(`SELECT recipient_email FROM credential_handovers`);
    expect(sent).toEqual({ recipient_email: 'someone@elsewhere.example' });
  });

  it('a certificate: the prompt, nothing registered, then the certificate as pasted', async () => {
    const agent = await app.staff.signIn(carla);
    const certificate = makeCertificate({ type: 'ec' });
    const certificates = `SELECT count(*)::int AS n FROM client_certificates`;
    const continued = await stepUpThenContinue(app.staff, agent, carla, {
      form: `/console/clients/${clientId}/certificates/new`,
      action: `/console/clients/${clientId}/certificates`,
      fields: { certificate: certificate.pem, displayName: 'their key' },
      unchanged: expectNone(certificates, []),
    });
    expect(continued.status).toBe(303);
    expect(await app.db.query(`SELECT display_name, thumbprint FROM client_certificates`)).toEqual([{ display_name: 'their key', thumbprint: thumbprintOf(certificate.pem) }]);
  });

  it('a staff invitation, for a new person and for an existing one given a role: the prompt, nobody invited, then the invitation', async () => {
    const agent = await app.staff.signIn(ada);
    const invited = `SELECT count(*)::int AS n FROM users WHERE username = $1`;
    const fresh = await stepUpThenContinue(app.staff, agent, ada, {
      form: '/console/staff/invite',
      action: '/console/staff/invite',
      fields: { email: 'newcomer@acme.example', role: 'Auditor', displayName: 'New Comer', username: '' },
      unchanged: expectNone(invited, ['newcomer']),
    });
    expect(fresh.status).toBe(303);
    expect(await count(invited, ['newcomer'])).toBe(1);

    const roles = `SELECT count(*)::int AS n FROM users WHERE username = 'carla' AND 'Administrator' = ANY(roles)`;
    const existing = await stepUpThenContinue(app.staff, agent, ada, {
      form: '/console/staff/invite',
      action: '/console/staff/invite',
      fields: { email: 'carla@example.com', role: 'Administrator', displayName: '', username: 'carla' },
      unchanged: expectNone(roles, []),
    });
    expect(existing.status).toBe(303);
    expect(await count(roles)).toBe(1);
  });

  it('a passkey: the prompt before it is kept, then the registration goes on (here with an answer that does not check out)', async () => {
    const ivy = await app.staff.staff(app.tenantId, ['Auditor'], { username: 'ivy' });
    const agent = await app.staff.signIn(ivy);
    const passkeys = `SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1`;
    const credential = JSON.stringify({ id: 'forged', rawId: 'forged', type: 'public-key', response: {} });
    const continued = await stepUpThenContinue(app.staff, agent, ivy, {
      form: '/console/account',
      action: '/console/account/passkeys',
      fields: { credential, name: 'Thief’s key' },
      unchanged: expectNone(passkeys, [ivy.id]),
    });
    expect([continued.status, continued.headers.location]).toEqual([303, '/console/account']);
    expect((await agent.get('/console/account')).text).toContain('The passkey could not be added');
    expect(await count(passkeys, [ivy.id])).toBe(0);
  });

  it('a second factor younger than five minutes is not asked again', async () => {
    const agent = await app.staff.signIn(carla);
    const sent = await app.staff.post(agent, `/console/clients/${clientId}/handovers/new`, `/console/clients/${clientId}/handovers`, {
      recipientEmail: 'ops@partner.example',
      expiresInHours: '24',
    });
    expect(isStepUpPrompt(sent)).toBe(false);
    expect(sent.status).toBe(303);
  });
});
