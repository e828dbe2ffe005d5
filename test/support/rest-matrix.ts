import type { Permission } from '@gatehouse/accounts';
import { makeCertificate } from './client-certificates.js';
import { MATRIX_WEBHOOK_URL, type MatrixFixtures } from './matrix-fixtures.js';

/** One call of an operation: the concrete path under /admin/v1 and the JSON body. */
export interface RestCall {
  path: string;
  body?: object;
}

export interface RestCase {
  /** The answer when the caller may make this call. */
  status: number;
  /**
   * A permission beyond the operation's that this very call needs (DESIGN §4: roles are the
   * Administrator's; SECURITY 50, 55, 56: staff, their clients and owners are the Administrator's).
   */
  needs?: Permission;
  prepare: (f: MatrixFixtures) => Promise<RestCall>;
}

/** An operation of the OpenAPI document: the permission DESIGN gives it, and calls to make. */
export interface RestOperation {
  permission: Permission;
  cases: RestCase[];
}

const read = (permission: Permission, path: (f: MatrixFixtures) => Promise<string>): RestOperation => ({
  permission,
  cases: [{ status: 200, prepare: async (f) => ({ path: await path(f) }) }],
});
/** A peer of a contact person: a person who holds a role, managed by an Administrator only (SECURITY 56). */
const staff = (f: MatrixFixtures) => f.user(['ContactPerson']);
const disabled = async (f: MatrixFixtures, roles: Parameters<MatrixFixtures['user']>[0] = []) => {
  const user = await f.user(roles);
  await f.db.query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [user.id]);
  return user;
};

/** A credential disabled as the stale-credential job disables one (`disabled_at`). */
const disabledAsStale = async (f: MatrixFixtures, table: string, column: string, key: string) => {
  await f.db.query(`UPDATE ${table} SET disabled_at = now(), stale_reported_at = now() WHERE ${column} = $1`, [key]);
};

const GITHUB_CREDENTIAL = (f: MatrixFixtures) => ({
  name: f.unique('fic'),
  issuer: 'https://token.actions.githubusercontent.com',
  subject: 'repo:partner/app:ref:refs/heads/main',
});

/**
 * Every operation of the admin API (keyed `METHOD path` as the OpenAPI document names it) with the
 * permission of DESIGN §4's endpoint table and the calls the role matrix makes. An operation the
 * document has and this table lacks fails the matrix test: a new endpoint needs its line here.
 */
export const REST_MATRIX: Record<string, RestOperation> = {
  'GET /admin/v1/tenant': read('Clients.Read', async () => '/tenant'),
  'PATCH /admin/v1/tenant': { permission: 'Tenant.Manage', cases: [{ status: 200, prepare: async () => ({ path: '/tenant', body: { accessTokenLifetimeSeconds: 3599 } }) }] },
  'GET /admin/v1/tenant/signing-keys': read('Tenant.Manage', async () => '/tenant/signing-keys'),
  // Without revoking: the previous key stays published, so the other roles' tokens keep working.
  'POST /admin/v1/tenant/signing-keys/rollover': { permission: 'Tenant.Manage', cases: [{ status: 201, prepare: async () => ({ path: '/tenant/signing-keys/rollover', body: {} }) }] },
  'GET /admin/v1/credential-policy': read('Tenant.Manage', async () => '/credential-policy'),
  // The defaults, in effect from now: nothing the other cases create is refused.
  'PUT /admin/v1/credential-policy': { permission: 'Tenant.Manage', cases: [{ status: 200, prepare: async () => ({ path: '/credential-policy', body: { staleCredentialDays: 90 } }) }] },
  'POST /admin/v1/users': {
    permission: 'Users.Manage',
    cases: [
      { status: 201, prepare: async (f) => ({ path: '/users', body: { username: f.unique('u'), email: `${f.unique('u')}@partner.example`, displayName: 'U' } }) },
      { status: 201, needs: 'Tenant.Manage', prepare: async (f) => ({ path: '/users', body: { username: f.unique('s'), email: `${f.unique('s')}@acme.example`, displayName: 'S', roles: ['Auditor'] } }) },
    ],
  },
  'GET /admin/v1/users': read('Users.Read', async () => '/users'),
  'GET /admin/v1/users/{id}': read('Users.Read', async (f) => `/users/${(await f.user()).id}`),
  'PATCH /admin/v1/users/{id}': {
    permission: 'Users.Manage',
    cases: [
      { status: 200, prepare: async (f) => ({ path: `/users/${(await f.user()).id}`, body: { displayName: 'Renamed' } }) },
      { status: 200, needs: 'Tenant.Manage', prepare: async (f) => ({ path: `/users/${(await f.user()).id}`, body: { roles: ['Auditor'] } }) },
      { status: 200, needs: 'Tenant.Manage', prepare: async (f) => ({ path: `/users/${(await staff(f)).id}`, body: { email: 'moved@acme.example' } }) },
    ],
  },
  'POST /admin/v1/users/{id}/disable': {
    permission: 'Users.Manage',
    cases: [
      { status: 200, prepare: async (f) => ({ path: `/users/${(await f.user()).id}/disable` }) },
      { status: 200, needs: 'Tenant.Manage', prepare: async (f) => ({ path: `/users/${(await staff(f)).id}/disable` }) },
    ],
  },
  'POST /admin/v1/users/{id}/enable': {
    permission: 'Users.Manage',
    cases: [
      { status: 200, prepare: async (f) => ({ path: `/users/${(await disabled(f)).id}/enable` }) },
      { status: 200, needs: 'Tenant.Manage', prepare: async (f) => ({ path: `/users/${(await disabled(f, ['ContactPerson'])).id}/enable` }) },
    ],
  },
  'POST /admin/v1/users/{id}/unlock': {
    permission: 'Users.Manage',
    cases: [
      { status: 200, prepare: async (f) => ({ path: `/users/${(await f.user()).id}/unlock` }) },
      { status: 200, needs: 'Tenant.Manage', prepare: async (f) => ({ path: `/users/${(await staff(f)).id}/unlock` }) },
    ],
  },
  'POST /admin/v1/users/{id}/reset-password': {
    permission: 'Users.Manage',
    cases: [
      { status: 200, prepare: async (f) => ({ path: `/users/${(await f.user()).id}/reset-password`, body: { mode: 'generate' } }) },
      { status: 200, needs: 'Tenant.Manage', prepare: async (f) => ({ path: `/users/${(await staff(f)).id}/reset-password`, body: { mode: 'activation-link' } }) },
    ],
  },
  'DELETE /admin/v1/users/{id}/sections/{slug}': {
    permission: 'Docs.Manage',
    cases: [{ status: 204, prepare: async (f) => ((r) => ({ path: `/users/${r.userId}/sections/${r.slug}` }))(await f.reader()) }],
  },
  'POST /admin/v1/apis': { permission: 'Apis.Manage', cases: [{ status: 201, prepare: async (f) => ({ path: '/apis', body: { identifier: `api://${f.unique('new')}`, displayName: 'New' } }) }] },
  'GET /admin/v1/apis': read('Clients.Read', async () => '/apis'),
  'GET /admin/v1/apis/{id}': read('Clients.Read', async (f) => `/apis/${(await f.api()).id}`),
  'PATCH /admin/v1/apis/{id}': { permission: 'Apis.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/apis/${(await f.api()).id}`, body: { accessTokenVersion: 1 } }) }] },
  'POST /admin/v1/apis/{id}/scopes': { permission: 'Apis.Manage', cases: [{ status: 201, prepare: async (f) => ({ path: `/apis/${(await f.api()).id}/scopes`, body: { value: 'Things.Write' } }) }] },
  'POST /admin/v1/clients': {
    permission: 'Clients.Manage',
    cases: [
      { status: 201, prepare: async () => ({ path: '/clients', body: { displayName: 'Partner app', contactEmail: 'ops@partner.example' } }) },
      { status: 201, needs: 'Tenant.Manage', prepare: async (f) => ({ path: '/clients', body: { displayName: 'In a name', ownerUserId: (await f.user()).id } }) },
    ],
  },
  'GET /admin/v1/clients': read('Clients.Read', async () => '/clients'),
  'GET /admin/v1/clients/{clientId}': read('Clients.Read', async (f) => `/clients/${await f.client()}`),
  'PATCH /admin/v1/clients/{clientId}': {
    permission: 'Scopes.Assign',
    cases: [
      { status: 200, prepare: async (f) => ({ path: `/clients/${await f.client()}`, body: { allowedSourceRanges: ['0.0.0.0/0', '::/0'], tokensPerHour: 100000 } }) },
      { status: 200, needs: 'Tenant.Manage', prepare: async (f) => ({ path: `/clients/${await f.client((await staff(f)).id)}`, body: { tokensPerHour: 100000 } }) },
    ],
  },
  'POST /admin/v1/clients/{clientId}/disable': {
    permission: 'Clients.Manage',
    cases: [
      { status: 200, prepare: async (f) => ({ path: `/clients/${await f.client()}/disable` }) },
      { status: 200, needs: 'Tenant.Manage', prepare: async (f) => ({ path: `/clients/${await f.client((await staff(f)).id)}/disable` }) },
    ],
  },
  'POST /admin/v1/clients/{clientId}/enable': {
    permission: 'Clients.Manage',
    cases: [
      {
        status: 200,
        prepare: async (f) => {
          const clientId = await f.client();
          await f.db.query(`UPDATE api_clients SET state = 'disabled' WHERE client_id = $1`, [clientId]);
          return { path: `/clients/${clientId}/enable` };
        },
      },
    ],
  },
  'PUT /admin/v1/clients/{clientId}/scopes': { permission: 'Scopes.Assign', cases: [{ status: 200, prepare: async (f) => ({ path: `/clients/${await f.client()}/scopes`, body: { scopes: [await f.scope()] } }) }] },
  'POST /admin/v1/clients/{clientId}/scopes/remove-unused': {
    permission: 'Scopes.Assign',
    cases: [{ status: 200, prepare: async (f) => ({ path: `/clients/${await f.clientWithUnusedScope()}/scopes/remove-unused` }) }],
  },
  'GET /admin/v1/credential-report': read('Clients.Read', async () => '/credential-report'),
  'POST /admin/v1/clients/{clientId}/secrets': {
    permission: 'Secrets.Manage',
    cases: [
      { status: 201, prepare: async (f) => ({ path: `/clients/${await f.client()}/secrets`, body: {} }) },
      { status: 201, needs: 'Tenant.Manage', prepare: async (f) => ({ path: `/clients/${await f.client((await staff(f)).id)}/secrets`, body: {} }) },
    ],
  },
  'GET /admin/v1/clients/{clientId}/secrets': read('Clients.Read', async (f) => `/clients/${await f.client()}/secrets`),
  'DELETE /admin/v1/clients/{clientId}/secrets/{keyId}': { permission: 'Secrets.Manage', cases: [{ status: 204, prepare: async (f) => ((s) => ({ path: `/clients/${s.clientId}/secrets/${s.keyId}` }))(await f.secret()) }] },
  'POST /admin/v1/clients/{clientId}/secrets/{keyId}/enable': {
    permission: 'Secrets.Manage',
    cases: [{ status: 200, prepare: async (f) => { const s = await f.secret(); await disabledAsStale(f, 'client_secrets', 'key_id', s.keyId); return { path: `/clients/${s.clientId}/secrets/${s.keyId}/enable` }; } }],
  },
  'POST /admin/v1/clients/{clientId}/certificates/{keyId}/enable': {
    permission: 'Secrets.Manage',
    cases: [{ status: 200, prepare: async (f) => { const c = await f.certificate(); await disabledAsStale(f, 'client_certificates', 'key_id', c.keyId); return { path: `/clients/${c.clientId}/certificates/${c.keyId}/enable` }; } }],
  },
  'POST /admin/v1/clients/{clientId}/federated-credentials/{id}/enable': {
    permission: 'Secrets.Manage',
    cases: [{ status: 200, prepare: async (f) => { const c = await f.federated(); await disabledAsStale(f, 'client_federated_credentials', 'id', c.id); return { path: `/clients/${c.clientId}/federated-credentials/${c.id}/enable` }; } }],
  },
  'POST /admin/v1/clients/{clientId}/certificates': {
    permission: 'Secrets.Manage',
    cases: [{ status: 201, prepare: async (f) => ({ path: `/clients/${await f.client()}/certificates`, body: { certificate: makeCertificate({ type: 'ec' }).pem } }) }],
  },
  'GET /admin/v1/clients/{clientId}/certificates': read('Clients.Read', async (f) => `/clients/${await f.client()}/certificates`),
  'DELETE /admin/v1/clients/{clientId}/certificates/{keyId}': { permission: 'Secrets.Manage', cases: [{ status: 204, prepare: async (f) => ((c) => ({ path: `/clients/${c.clientId}/certificates/${c.keyId}` }))(await f.certificate()) }] },
  'POST /admin/v1/clients/{clientId}/federated-credentials': {
    permission: 'Secrets.Manage',
    cases: [
      { status: 201, prepare: async (f) => ({ path: `/clients/${await f.client()}/federated-credentials`, body: GITHUB_CREDENTIAL(f) }) },
      { status: 201, needs: 'Tenant.Manage', prepare: async (f) => ({ path: `/clients/${await f.client((await staff(f)).id)}/federated-credentials`, body: GITHUB_CREDENTIAL(f) }) },
    ],
  },
  'GET /admin/v1/clients/{clientId}/federated-credentials': read('Clients.Read', async (f) => `/clients/${await f.client()}/federated-credentials`),
  'PATCH /admin/v1/clients/{clientId}/federated-credentials/{id}': {
    permission: 'Secrets.Manage',
    cases: [{ status: 200, prepare: async (f) => ((c) => ({ path: `/clients/${c.clientId}/federated-credentials/${c.id}`, body: { description: 'CI' } }))(await f.federated()) }],
  },
  'DELETE /admin/v1/clients/{clientId}/federated-credentials/{id}': { permission: 'Secrets.Manage', cases: [{ status: 204, prepare: async (f) => ((c) => ({ path: `/clients/${c.clientId}/federated-credentials/${c.id}` }))(await f.federated()) }] },
  'GET /admin/v1/audit-events': read('Audit.Read', async () => '/audit-events'),
  'GET /admin/v1/audit-events/{id}': read('Audit.Read', async (f) => {
    const [event] = await f.db.query(`SELECT id FROM audit_events WHERE tenant_id = $1 LIMIT 1`, [f.tenantId]);
    return `/audit-events/${event.id as string}`;
  }),
  'POST /admin/v1/doc-sections': { permission: 'Docs.Manage', cases: [{ status: 201, prepare: async (f) => ({ path: '/doc-sections', body: { slug: f.unique('doc'), title: 'Doc', body: '# Doc' } }) }] },
  'GET /admin/v1/doc-sections': read('Docs.Manage', async () => '/doc-sections'),
  'GET /admin/v1/doc-sections/{slug}': read('Docs.Manage', async (f) => `/doc-sections/${await f.section()}`),
  'PATCH /admin/v1/doc-sections/{slug}': { permission: 'Docs.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/doc-sections/${await f.section()}`, body: { title: 'Retitled' } }) }] },
  'DELETE /admin/v1/doc-sections/{slug}': { permission: 'Docs.Manage', cases: [{ status: 204, prepare: async (f) => ({ path: `/doc-sections/${await f.section()}` }) }] },
  'POST /admin/v1/invitations': {
    permission: 'Invitations.Manage',
    cases: [{ status: 201, prepare: async (f) => ({ path: '/invitations', body: { userId: (await f.user()).id, sections: [await f.section()] } }) }],
  },
  'GET /admin/v1/invitations': read('Invitations.Manage', async () => '/invitations'),
  'GET /admin/v1/invitations/{id}': read('Invitations.Manage', async (f) => `/invitations/${(await f.invitation()).id}`),
  'POST /admin/v1/invitations/{id}/resend': { permission: 'Invitations.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/invitations/${(await f.invitation()).id}/resend`, body: {} }) }] },
  'POST /admin/v1/invitations/{id}/revoke': { permission: 'Invitations.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/invitations/${(await f.invitation()).id}/revoke` }) }] },
  'GET /admin/v1/emails': read('Invitations.Manage', async () => '/emails'),
  'GET /admin/v1/emails/{id}': read('Invitations.Manage', async (f) => `/emails/${await f.abandonedEmail()}`),
  'POST /admin/v1/emails/{id}/retry': { permission: 'Invitations.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/emails/${await f.abandonedEmail()}/retry` }) }] },
  'POST /admin/v1/access-requests': {
    permission: 'Requests.Decide',
    cases: [
      {
        status: 201,
        prepare: async (f) => ({
          path: '/access-requests',
          body: { requesterName: 'Pat', requesterEmail: `${f.unique('pat')}@partner.example`, organisation: 'Partner Ltd', account: { documentation: 'The guide', reason: 'Integration' } },
        }),
      },
    ],
  },
  'GET /admin/v1/access-requests': read('Requests.Read', async () => '/access-requests'),
  'GET /admin/v1/access-requests/{id}': read('Requests.Read', async (f) => `/access-requests/${await f.accessRequest()}`),
  'POST /admin/v1/access-requests/{id}/approve': { permission: 'Requests.Decide', cases: [{ status: 200, prepare: async (f) => ({ path: `/access-requests/${await f.accessRequest()}/approve`, body: {} }) }] },
  'POST /admin/v1/access-requests/{id}/reject': { permission: 'Requests.Decide', cases: [{ status: 200, prepare: async (f) => ({ path: `/access-requests/${await f.accessRequest()}/reject`, body: { note: 'Not now.' } }) }] },
  'POST /admin/v1/clients/{clientId}/handovers': { permission: 'Secrets.Manage', cases: [{ status: 201, prepare: async (f) => ({ path: `/clients/${await f.client()}/handovers`, body: {} }) }] },
  'GET /admin/v1/clients/{clientId}/handovers': read('Clients.Read', async (f) => `/clients/${await f.client()}/handovers`),
  'POST /admin/v1/webhooks': { permission: 'Tenant.Manage', cases: [{ status: 201, prepare: async () => ({ path: '/webhooks', body: { url: MATRIX_WEBHOOK_URL, events: ['client.*'] } }) }] },
  'GET /admin/v1/webhooks': read('Tenant.Manage', async () => '/webhooks'),
  'GET /admin/v1/webhooks/{id}': read('Tenant.Manage', async (f) => `/webhooks/${await f.webhook()}`),
  'PATCH /admin/v1/webhooks/{id}': { permission: 'Tenant.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/webhooks/${await f.webhook()}`, body: { description: 'Renamed' } }) }] },
  'DELETE /admin/v1/webhooks/{id}': { permission: 'Tenant.Manage', cases: [{ status: 204, prepare: async (f) => ({ path: `/webhooks/${await f.webhook()}` }) }] },
  'POST /admin/v1/webhooks/{id}/rotate-secret': { permission: 'Tenant.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/webhooks/${await f.webhook()}/rotate-secret` }) }] },
  'POST /admin/v1/webhooks/{id}/test': { permission: 'Tenant.Manage', cases: [{ status: 202, prepare: async (f) => ({ path: `/webhooks/${await f.webhook()}/test` }) }] },
  'GET /admin/v1/webhooks/{id}/deliveries': read('Tenant.Manage', async (f) => `/webhooks/${await f.webhook()}/deliveries`),
  'POST /admin/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    permission: 'Tenant.Manage',
    cases: [{ status: 202, prepare: async (f) => ((w) => ({ path: `/webhooks/${w.id}/deliveries/${w.deliveryId}/redeliver` }))(await f.webhookDelivery()) }],
  },
  'POST /admin/v1/handovers/{id}/revoke': { permission: 'Secrets.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/handovers/${(await f.handover()).id}/revoke` }) }] },
  'POST /admin/v1/handovers/{id}/resend': { permission: 'Secrets.Manage', cases: [{ status: 201, prepare: async (f) => ({ path: `/handovers/${(await f.expiredHandover()).id}/resend`, body: {} }) }] },
  'POST /admin/v1/organisations': { permission: 'Users.Manage', cases: [{ status: 201, prepare: async (f) => ({ path: '/organisations', body: { name: f.unique('Partner') } }) }] },
  'GET /admin/v1/organisations': read('Users.Read', async () => '/organisations?search=partner'),
  'GET /admin/v1/organisations/{id}': read('Users.Read', async (f) => `/organisations/${await f.organisation()}`),
  'PATCH /admin/v1/organisations/{id}': { permission: 'Users.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/organisations/${await f.organisation()}`, body: { name: f.unique('Renamed') } }) }] },
  'POST /admin/v1/organisations/{id}/offboard': { permission: 'Users.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/organisations/${await f.organisation()}/offboard` }) }] },
  'POST /admin/v1/organisations/{id}/restore': { permission: 'Users.Manage', cases: [{ status: 200, prepare: async (f) => ({ path: `/organisations/${await f.organisation(true)}/restore` }) }] },
  'PUT /admin/v1/clients/{clientId}/organisation': {
    permission: 'Clients.Manage',
    cases: [{ status: 200, prepare: async (f) => ({ path: `/clients/${await f.client()}/organisation`, body: { organisationId: await f.organisation() } }) }],
  },
};
