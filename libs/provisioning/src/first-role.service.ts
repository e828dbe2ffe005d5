import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AccountReset, type FirstRoleGrant, UserCredentialsService, UserService } from '@gatehouse/accounts';
import { OwnedCredentialsService } from '@gatehouse/clients';
import { HandoverService } from '@gatehouse/handovers';
import { SessionService } from '@gatehouse/sessions';
import { TenantService } from '@gatehouse/tenants';
import { StaffLinks } from './staff-links.js';

/** Why credentials went, as the audit names it. */
const REASON = 'owner_given_role';

/**
 * Giving an existing account its first role starts it afresh (SECURITY 55), in the transaction
 * that gives the role, whoever gives it (REST `PATCH /users/{id}`, the console's Staff page,
 * `operator invite`): no password, no usable link, no second factor, no session; the credentials
 * of clients it owns but did not create revoked or removed, and their pending handovers and every
 * pending handover addressed to it revoked. A new console activation link is then the only way in.
 */
@Injectable()
export class FirstRoleService implements OnModuleInit {
  constructor(
    private readonly users: UserService,
    private readonly credentials: UserCredentialsService,
    private readonly owned: OwnedCredentialsService,
    private readonly handovers: HandoverService,
    private readonly sessions: SessionService,
    private readonly tenants: TenantService,
    private readonly links: StaffLinks,
  ) {}

  onModuleInit(): void {
    this.users.onFirstRole((em, grant) => this.startAfresh(em, grant));
  }

  async startAfresh(em: EntityManager, { tenantId, actor, user, delivery }: FirstRoleGrant): Promise<AccountReset> {
    const account = await this.credentials.startAfresh(em, tenantId, actor, user);
    const foreign = await this.owned.foreignClients(em, tenantId, user.id);
    const target = { recipientEmail: user.email, apiClientIds: foreign.map((client) => client.id) };
    const handovers = await this.handovers.revokePendingFor(em, tenantId, actor, target, REASON);
    const revoked = await this.owned.revoke(em, tenantId, actor, foreign, REASON);
    const sessionsEnded = await this.sessions.endAllOf(tenantId, user.id, em);
    const link = await this.links.issue(em, await this.tenants.getById(tenantId, em), user, delivery);
    const clients = revoked
      .map(({ id, clientId, displayName, secretsRevoked, certificatesRemoved, federatedCredentialsRemoved }) => ({
        ...{ clientId, displayName, secretsRevoked, certificatesRemoved, federatedCredentialsRemoved },
        handoversRevoked: handovers.filter((h) => h.apiClientId === id).length,
      }))
      .filter((client) => client.secretsRevoked + client.certificatesRemoved + client.federatedCredentialsRemoved + client.handoversRevoked > 0);
    return {
      ...account,
      sessionsEnded,
      clients,
      handoversRevoked: handovers.length,
      activation: { delivery, expiresAt: link.expiresAt, ...(delivery === 'return' ? { url: link.url } : {}) },
    };
  }
}
