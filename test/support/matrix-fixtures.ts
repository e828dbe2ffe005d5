import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Permission, type Role, UserService } from '@gatehouse/accounts';
import { ApiService } from '@gatehouse/apis';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientCertificateService, ClientService, FederatedCredentialService } from '@gatehouse/clients';
import { DocService } from '@gatehouse/docs';
import { WebhookService } from '@gatehouse/events';
import { HandoverService } from '@gatehouse/handovers';
import { InvitationService } from '@gatehouse/invitations';
import { OffboardingService, OrganisationService } from '@gatehouse/organisations';
import { AccessRequestService } from '@gatehouse/requests';
import { makeCertificate } from './client-certificates.js';

/** The role table of DESIGN §4, written out as the document states it (not read from the code). */
export const DESIGN_ROLES: Record<Role | 'none', readonly Permission[]> = {
  Administrator: [
    'Tenant.Manage', 'Users.Read', 'Users.Manage', 'Invitations.Manage', 'Docs.Manage', 'Clients.Read', 'Clients.Manage',
    'Secrets.Manage', 'Apis.Manage', 'Scopes.Assign', 'Audit.Read', 'Requests.Read', 'Requests.Decide',
  ],
  ContactPerson: ['Users.Read', 'Users.Manage', 'Invitations.Manage', 'Docs.Manage', 'Clients.Read', 'Clients.Manage', 'Secrets.Manage', 'Requests.Read', 'Requests.Decide'],
  ITDepartment: ['Apis.Manage', 'Scopes.Assign', 'Clients.Read', 'Requests.Read'],
  Auditor: ['Audit.Read', 'Users.Read', 'Clients.Read', 'Requests.Read'],
  none: [],
};

export const MATRIX_ROLES = Object.keys(DESIGN_ROLES) as Array<Role | 'none'>;

/** A webhook endpoint the matrix apps allow (`webhookPrivateTargets`); nothing is ever sent to it. */
export const MATRIX_WEBHOOK_URL = 'https://127.0.0.1:9/matrix';

/**
 * Fresh objects for one call of the role matrix, made through the real services as the system:
 * every call acts on its own user, client, section…, so the order of the calls does not matter.
 */
export class MatrixFixtures {
  private n = 0;
  readonly db: DataSource;

  constructor(
    readonly app: INestApplication,
    readonly tenantId: string,
  ) {
    this.db = app.get(DataSource);
  }

  /** A name nobody has used yet in this run. */
  unique(prefix: string): string {
    this.n += 1;
    return `${prefix}-${this.n}-${Math.random().toString(36).slice(2, 6)}`;
  }

  async user(roles: Role[] = []): Promise<{ id: string; email: string; username: string }> {
    const username = this.unique('person');
    const created = await this.app.get(UserService).create(this.tenantId, SYSTEM_ACTOR, {
      username,
      email: `${username}@partner.example`,
      displayName: username,
      roles,
      password: 'none',
    });
    return { id: created.id, email: created.email, username };
  }

  /** A partner organisation (`offboarded`: already offboarded, to be restored). */
  async organisation(offboarded = false): Promise<string> {
    const { id } = await this.app.get(OrganisationService).create(this.tenantId, SYSTEM_ACTOR, { name: this.unique('organisation') });
    if (offboarded) await this.app.get(OffboardingService).offboard(this.tenantId, SYSTEM_ACTOR, id);
    return id;
  }

  async client(ownerUserId?: string): Promise<string> {
    const input = { displayName: this.unique('client'), contactEmail: 'ops@partner.example', ownerUserId };
    return (await this.app.get(ClientService).create(this.tenantId, SYSTEM_ACTOR, input)).clientId;
  }

  async secret(clientId?: string): Promise<{ clientId: string; keyId: string }> {
    const id = clientId ?? (await this.client());
    return { clientId: id, keyId: (await this.app.get(ClientService).issueSecret(this.tenantId, SYSTEM_ACTOR, id, {})).keyId };
  }

  async certificate(): Promise<{ clientId: string; keyId: string }> {
    const clientId = await this.client();
    const added = await this.app.get(ClientCertificateService).add(this.tenantId, SYSTEM_ACTOR, clientId, { certificate: makeCertificate({ type: 'ec' }).pem });
    return { clientId, keyId: added.keyId };
  }

  async federated(): Promise<{ clientId: string; id: string }> {
    const clientId = await this.client();
    const input = { name: this.unique('fic'), issuer: 'https://token.actions.githubusercontent.com', subject: 'repo:partner/app:ref:refs/heads/main' };
    return { clientId, id: (await this.app.get(FederatedCredentialService).add(this.tenantId, SYSTEM_ACTOR, clientId, input)).id };
  }

  async handover(): Promise<{ clientId: string; id: string }> {
    const clientId = await this.client();
    return { clientId, id: (await this.app.get(HandoverService).create(this.tenantId, SYSTEM_ACTOR, clientId, {})).id };
  }

  /** A handover whose link expired unrevealed (what may be sent again). */
  async expiredHandover(): Promise<{ clientId: string; id: string }> {
    const handover = await this.handover();
    await this.db.query(`UPDATE credential_handovers SET expires_at = now() - interval '1 minute' WHERE id = $1`, [handover.id]);
    return handover;
  }

  async api(): Promise<{ id: string; identifier: string }> {
    const identifier = `api://${this.unique('api')}`;
    return { id: (await this.app.get(ApiService).create(this.tenantId, SYSTEM_ACTOR, { identifier, displayName: identifier })).id, identifier };
  }

  /** A scope string as token requests and `PUT /clients/{id}/scopes` name it. */
  async scope(): Promise<string> {
    const api = await this.api();
    await this.app.get(ApiService).addScope(this.tenantId, SYSTEM_ACTOR, api.id, { value: 'Things.Read' });
    return `${api.identifier}/Things.Read`;
  }

  async section(): Promise<string> {
    const slug = this.unique('section');
    await this.app.get(DocService).create(this.tenantId, SYSTEM_ACTOR, { slug, title: slug, body: '# Hello' });
    return slug;
  }

  /** A user who can read a section (as if they had accepted an invitation to it). */
  async reader(): Promise<{ userId: string; slug: string }> {
    const [user, slug] = [await this.user(), await this.section()];
    await this.db.query(
      `INSERT INTO doc_section_grants (user_id, section_id, tenant_id) SELECT $1, id, tenant_id FROM doc_sections WHERE tenant_id = $2 AND slug = $3`,
      [user.id, this.tenantId, slug],
    );
    return { userId: user.id, slug };
  }

  async invitation(): Promise<{ id: string; userId: string }> {
    const [user, slug] = [await this.user(), await this.section()];
    const sent = await this.app.get(InvitationService).create(this.tenantId, SYSTEM_ACTOR, { userId: user.id, sections: [slug] });
    return { id: sent.id, userId: user.id };
  }

  /** A mail given up after its retries (what may be retried). */
  async abandonedEmail(): Promise<string> {
    const { userId } = await this.invitation();
    const [row] = await this.db.query(
      `WITH a AS (UPDATE emails SET status = 'abandoned'
                   WHERE id = (SELECT id FROM emails WHERE tenant_id = $1 AND to_address = (SELECT email FROM users WHERE id = $2) ORDER BY created_at DESC LIMIT 1)
                   RETURNING id)
       SELECT id FROM a`,
      [this.tenantId, userId],
    );
    return (row as { id: string }).id;
  }

  async accessRequest(): Promise<string> {
    const requester = this.unique('requester');
    const filed = await this.app.get(AccessRequestService).file(this.tenantId, SYSTEM_ACTOR, {
      requesterName: 'Pat Partner',
      requesterEmail: `${requester}@partner.example`,
      organisation: 'Partner Ltd',
      api: { systemName: requester, technicalContactEmail: 'ops@partner.example', purpose: 'Reads orders.' },
    });
    return filed.id;
  }

  async webhook(): Promise<string> {
    return (await this.app.get(WebhookService).create(this.tenantId, SYSTEM_ACTOR, { url: MATRIX_WEBHOOK_URL, events: ['client.*'] })).id;
  }

  /** A webhook with a delivery that was made (what may be sent again). */
  async webhookDelivery(): Promise<{ id: string; deliveryId: string }> {
    const id = await this.webhook();
    const delivery = await this.app.get(WebhookService).test(this.tenantId, SYSTEM_ACTOR, id);
    await this.db.query(`UPDATE webhook_deliveries SET state = 'delivered' WHERE id = $1`, [delivery.id]);
    return { id, deliveryId: delivery.id };
  }

  /** Audit events of the tenant: every write records one, so an unchanged count means nothing was done. */
  async auditCount(): Promise<number> {
    return ((await this.db.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1`, [this.tenantId]))[0] as { n: number }).n;
  }
}
