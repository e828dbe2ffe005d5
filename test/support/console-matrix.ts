import type { Permission } from '@gatehouse/accounts';
import { makeCertificate } from './client-certificates.js';
import { STAFF_PASSWORD, type StaffMember } from './console.js';
import { MATRIX_WEBHOOK_URL, type MatrixFixtures } from './matrix-fixtures.js';

/** One POST of a console form: its path under the console and the fields the page sends. */
export interface ConsoleCall {
  path: string;
  fields?: Record<string, string | string[]>;
}

export interface ConsoleForm {
  /** The permission of its REST twin (DESIGN §4; `null`: any signed-in staff member, on their own account). */
  permission: Permission | null;
  /** SECURITY 45, 57: a second factor younger than five minutes. */
  stepUp: boolean;
  /** The answer when it works: 303 to the result page, or 200 for a page shown once. */
  status: number;
  /** Whether working writes an audit event (false only where nothing is stored). */
  audited?: boolean;
  /** A permission beyond the form's that this very call needs (the person acted on holds a role). */
  needs?: Permission;
  prepare: (f: MatrixFixtures, me: StaffMember) => Promise<ConsoleCall>;
}

const form = (permission: Permission | null, prepare: ConsoleForm['prepare'], more: Partial<ConsoleForm> = {}): ConsoleForm => ({
  permission,
  stepUp: false,
  status: 303,
  prepare,
  ...more,
});
/** A credential disabled as the stale-credential job disables one (`disabled_at`); returns it. */
async function disabledAsStale<T extends { keyId?: string; id?: string }>(f: MatrixFixtures, table: string, column: string, credential: T): Promise<T> {
  await f.db.query(`UPDATE ${table} SET disabled_at = now(), stale_reported_at = now() WHERE ${column} = $1`, [credential.keyId ?? credential.id]);
  return credential;
}
const user = async (f: MatrixFixtures, path: string) => ({ path: `users/${(await f.user()).id}/${path}` });
const client = async (f: MatrixFixtures, path: string) => ({ path: `clients/${await f.client()}/${path}` });

/**
 * Every console form POST behind the console guard (keyed as its route names it), with the
 * permission, the step-up and a call that works. A new form without a line here fails the
 * console matrix test; a line whose route is gone fails it too.
 */
export const CONSOLE_MATRIX: Record<string, ConsoleForm> = {
  'requests/new': form('Requests.Decide', async (f) => ({
    path: 'requests/new',
    fields: { requesterName: 'Pat', requesterEmail: `${f.unique('pat')}@partner.example`, organisation: 'Partner Ltd', wantsAccount: 'yes', documentation: 'The guide', reason: 'Integration' },
  })),
  'requests/:id/approve': form('Requests.Decide', async (f) => ({ path: `requests/${await f.accessRequest()}/approve`, fields: { note: '', expiresInHours: '168' } })),
  'requests/:id/reject': form('Requests.Decide', async (f) => ({ path: `requests/${await f.accessRequest()}/reject`, fields: { note: 'Not now.' } })),
  'users/new': form('Users.Manage', async (f) => {
    const username = f.unique('new');
    return { path: 'users/new', fields: { username, email: `${username}@partner.example`, displayName: 'New', access: '' } };
  }),
  'users/:id/disable': form('Users.Manage', (f) => user(f, 'disable')),
  'users/:id/enable': form('Users.Manage', async (f) => {
    const { id } = await f.user();
    await f.db.query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [id]);
    return { path: `users/${id}/enable` };
  }),
  'users/:id/unlock': form('Users.Manage', (f) => user(f, 'unlock')),
  'users/:id/reset-password': form('Users.Manage', async (f) => ({ path: `users/${(await f.user(['Auditor'])).id}/reset-password` }), { needs: 'Tenant.Manage' }),
  'users/:id/reset-password/generate': form('Users.Manage', (f) => user(f, 'reset-password/generate'), { stepUp: true, status: 200 }),
  'users/:id/sections/:slug/close': form('Docs.Manage', async (f) => ((r) => ({ path: `users/${r.userId}/sections/${r.slug}/close` }))(await f.reader())),
  'users/:id/invitations': form('Invitations.Manage', async (f) => ({ path: `users/${(await f.user()).id}/invitations`, fields: { sections: [await f.section()], expiresInHours: '168' } })),
  'users/:id/invitations/:invitation/resend': form('Invitations.Manage', async (f) => ((i) => ({ path: `users/${i.userId}/invitations/${i.id}/resend` }))(await f.invitation())),
  'users/:id/invitations/:invitation/revoke': form('Invitations.Manage', async (f) => ((i) => ({ path: `users/${i.userId}/invitations/${i.id}/revoke` }))(await f.invitation())),
  'clients/new': form('Clients.Manage', async () => ({ path: 'clients/new', fields: { displayName: 'Partner app', contactEmail: 'ops@partner.example' } })),
  'clients/:clientId/scopes': form('Scopes.Assign', async (f) => ({ path: `clients/${await f.client()}/scopes`, fields: { scopes: [await f.scope()] } })),
  'clients/:clientId/limits': form('Scopes.Assign', async (f) => ({ ...(await client(f, 'limits')), fields: { allowedSourceRanges: '0.0.0.0/0\n::/0', tokensPerHour: '100000' } })),
  'clients/:clientId/disable': form('Clients.Manage', (f) => client(f, 'disable')),
  'clients/:clientId/scopes/remove-unused': form('Scopes.Assign', async (f) => ({ path: `clients/${await f.clientWithUnusedScope()}/scopes/remove-unused` })),
  'clients/:clientId/enable': form('Clients.Manage', async (f) => {
    const clientId = await f.client();
    await f.db.query(`UPDATE api_clients SET state = 'disabled' WHERE client_id = $1`, [clientId]);
    return { path: `clients/${clientId}/enable` };
  }),
  'clients/:clientId/secrets': form('Secrets.Manage', async (f) => ({ ...(await client(f, 'secrets')), fields: { displayName: 'prod', expiresInDays: '30' } }), { stepUp: true, status: 200 }),
  'clients/:clientId/secrets/:keyId/revoke': form('Secrets.Manage', async (f) => ((s) => ({ path: `clients/${s.clientId}/secrets/${s.keyId}/revoke` }))(await f.secret())),
  'clients/:clientId/certificates': form(
    'Secrets.Manage',
    async (f) => ({ ...(await client(f, 'certificates')), fields: { certificate: makeCertificate({ type: 'ec' }).pem, displayName: 'key' } }),
    { stepUp: true },
  ),
  'clients/:clientId/secrets/:key/enable': form(
    'Secrets.Manage',
    async (f) => ((s) => ({ path: `clients/${s.clientId}/secrets/${s.keyId}/enable` }))(await disabledAsStale(f, 'client_secrets', 'key_id', await f.secret())),
    { stepUp: true },
  ),
  'clients/:clientId/certificates/:key/enable': form(
    'Secrets.Manage',
    async (f) => ((c) => ({ path: `clients/${c.clientId}/certificates/${c.keyId}/enable` }))(await disabledAsStale(f, 'client_certificates', 'key_id', await f.certificate())),
    { stepUp: true },
  ),
  'clients/:clientId/federated-credentials/:key/enable': form(
    'Secrets.Manage',
    async (f) => ((c) => ({ path: `clients/${c.clientId}/federated-credentials/${c.id}/enable` }))(await disabledAsStale(f, 'client_federated_credentials', 'id', await f.federated())),
    { stepUp: true },
  ),
  'clients/:clientId/certificates/:keyId/remove': form('Secrets.Manage', async (f) => ((c) => ({ path: `clients/${c.clientId}/certificates/${c.keyId}/remove` }))(await f.certificate())),
  'clients/:clientId/federated-credentials/preview': form(
    'Secrets.Manage',
    async (f) => ({ ...(await client(f, 'federated-credentials/preview')), fields: { scenario: 'kubernetes', issuer: 'https://k8s.partner.example', namespace: 'jobs', serviceAccount: 'sync', name: 'k8s' } }),
    { status: 200, audited: false },
  ),
  'clients/:clientId/federated-credentials': form(
    'Secrets.Manage',
    async (f) => ({ ...(await client(f, 'federated-credentials')), fields: { scenario: 'kubernetes', issuer: 'https://k8s.partner.example', namespace: 'jobs', serviceAccount: 'sync', name: f.unique('k8s') } }),
    { stepUp: true },
  ),
  'clients/:clientId/federated-credentials/:id/remove': form('Secrets.Manage', async (f) => ((c) => ({ path: `clients/${c.clientId}/federated-credentials/${c.id}/remove` }))(await f.federated())),
  'clients/:clientId/handovers': form('Secrets.Manage', async (f) => ({ ...(await client(f, 'handovers')), fields: { recipientEmail: 'anyone@elsewhere.example', expiresInHours: '24' } }), { stepUp: true }),
  'clients/:clientId/handovers/:handoverId/revoke': form('Secrets.Manage', async (f) => ((h) => ({ path: `clients/${h.clientId}/handovers/${h.id}/revoke` }))(await f.handover())),
  'clients/:clientId/handovers/:handoverId/resend': form(
    'Secrets.Manage',
    async (f) => ((h) => ({ path: `clients/${h.clientId}/handovers/${h.id}/resend` }))(await f.expiredHandover()),
    { stepUp: true },
  ),
  'apis/new': form('Apis.Manage', async (f) => ({ path: 'apis/new', fields: { identifier: `api://${f.unique('c')}`, displayName: 'C', accessTokenVersion: '2' } })),
  'apis/:id/scopes': form('Apis.Manage', async (f) => ({ path: `apis/${(await f.api()).id}/scopes`, fields: { value: 'Things.Write', description: '' } })),
  'docs/new': form('Docs.Manage', async (f) => ({ path: 'docs/new', fields: { slug: f.unique('doc'), title: 'Doc', body: '# Doc' } })),
  'docs/:slug': form('Docs.Manage', async (f) => ({ path: `docs/${await f.section()}`, fields: { title: 'Retitled', body: '# Doc' } })),
  'docs/:slug/delete': form('Docs.Manage', async (f) => ({ path: `docs/${await f.section()}/delete` })),
  'email/:id/retry': form('Invitations.Manage', async (f) => ({ path: `email/${await f.abandonedEmail()}/retry` })),
  'staff/invite': form('Tenant.Manage', async (f) => ((u) => ({ path: 'staff/invite', fields: { email: `${u}@acme.example`, role: 'Auditor', username: u, displayName: '' } }))(f.unique('staff')), { stepUp: true }),
  'staff/:id/roles': form('Tenant.Manage', async (f) => ({ path: `staff/${(await f.user(['Auditor'])).id}/roles`, fields: { roles: ['Auditor', 'ITDepartment'] } }), { stepUp: true }),
  // Someone holding a role without a password: invited, their link their way in.
  'staff/:id/invitation/resend': form('Tenant.Manage', async (f) => ({ path: `staff/${(await f.user(['Auditor'])).id}/invitation/resend` }), { stepUp: true }),
  'staff/:id/invitation/revoke': form('Tenant.Manage', async (f) => ({ path: `staff/${(await f.user(['Auditor'])).id}/invitation/revoke` })),
  'staff/:id/reset-mfa': form('Tenant.Manage', async (f) => ({ path: `staff/${(await f.user(['Auditor'])).id}/reset-mfa` }), { stepUp: true }),
  // Without revoking: the previous key stays published, so the other roles' tokens keep working.
  // The defaults, in effect from now: nothing the other forms create is refused.
  'credential-policy': form(
    'Tenant.Manage',
    async () => ({ path: 'credential-policy', fields: { maxSecretLifetimeDays: '730', allowedCredentialKinds: ['secret', 'certificate', 'federated'], staleCredentialDays: '90' } }),
    { stepUp: true },
  ),
  'keys/rollover': form('Tenant.Manage', async () => ({ path: 'keys/rollover', fields: {} }), { stepUp: true }),
  webhooks: form('Tenant.Manage', async () => ({ path: 'webhooks', fields: { url: MATRIX_WEBHOOK_URL, events: 'client.*', description: '' } }), { stepUp: true, status: 200 }),
  'webhooks/:id/rotate-secret': form('Tenant.Manage', async (f) => ({ path: `webhooks/${await f.webhook()}/rotate-secret` }), { stepUp: true, status: 200 }),
  'webhooks/:id/test': form('Tenant.Manage', async (f) => ({ path: `webhooks/${await f.webhook()}/test` })),
  'webhooks/:id/enable': form('Tenant.Manage', async (f) => ({ path: `webhooks/${await f.webhook()}/enable` })),
  'webhooks/:id/deliveries/:deliveryId/redeliver': form('Tenant.Manage', async (f) => ((w) => ({ path: `webhooks/${w.id}/deliveries/${w.deliveryId}/redeliver` }))(await f.webhookDelivery())),
  'webhooks/:id/delete': form('Tenant.Manage', async (f) => ({ path: `webhooks/${await f.webhook()}/delete` })),
  organisations: form('Users.Manage', async (f) => ({ path: 'organisations', fields: { name: f.unique('Partner') } })),
  'organisations/:id/offboard': form('Users.Manage', async (f) => ({ path: `organisations/${await f.organisation()}/offboard` })),
  'organisations/:id/restore': form('Users.Manage', async (f) => ({ path: `organisations/${await f.organisation(true)}/restore` })),
  'account/recovery-codes': form(null, async () => ({ path: 'account/recovery-codes' }), { stepUp: true, status: 200 }),
  'account/passkeys/options': form(null, async () => ({ path: 'account/passkeys/options' }), { status: 200, audited: false }),
  // A registration whose answer does not check out: nothing is stored, so nothing is audited; the step-up comes first.
  'account/passkeys': form(null, async () => ({ path: 'account/passkeys', fields: { credential: '{"id":"forged"}', name: 'Key' } }), { stepUp: true, audited: false }),
  'account/passkeys/:id/remove': form(
    null,
    async (f, me) => {
      const [{ id }] = await f.db.query(
        `INSERT INTO passkeys (tenant_id, user_id, credential_id, public_key, sign_count, transports, name) VALUES ($1, $2, $3, '\\x00', 0, '{}', 'Old key') RETURNING id`,
        [f.tenantId, me.id, f.unique('credential')],
      );
      return { path: `account/passkeys/${id}/remove` };
    },
    { stepUp: true },
  ),
  'account/sessions/end-others': form(null, async () => ({ path: 'account/sessions/end-others' }), { audited: false }),
  // Last: it changes the password the fixtures signed in with (the session goes on, renewed).
  'account/password': form(null, async () => ({
    path: 'account/password',
    fields: { currentPassword: STAFF_PASSWORD, newPassword: 'a brand new passphrase for the matrix', confirmPassword: 'a brand new passphrase for the matrix' },
  })),
};
