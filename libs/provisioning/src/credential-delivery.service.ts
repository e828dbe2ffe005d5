import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActivationService } from '@gatehouse/accounts';
import { type Actor, AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { type ApiClient, ClientService, CredentialPolicyService, newCredentialBreach } from '@gatehouse/clients';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { type HandoverContact, HandoverService } from '@gatehouse/handovers';
import { MailOutbox, handoverSentEmail } from '@gatehouse/mail';
import { type AccessRequest, AccessRequestStateService, recordRequestEvent } from '@gatehouse/requests';
import { TenantService } from '@gatehouse/tenants';

/** Everything a partner needs, shown once by the reveal: the only place the secret ever appears. */
export interface RevealedCredentials {
  tenantId: string;
  tenantName: string;
  /** `{PUBLIC_URL}/{tenantId}`: MSAL's authority. */
  authority: string;
  tokenEndpoint: string;
  clientId: string;
  clientName: string;
  /** The scope string to request for each API the client may call (`{resource}/.default`). */
  scopes: string[];
  secret: string;
  secretExpiresAt: string;
  /** Whom to ask for the next secret: the person responsible for the handover, if still active. */
  contact: HandoverContact | null;
}

/**
 * Delivering what an approval granted: the first handover goes out by itself when the client of
 * an approved request turns active; a reveal creates the secret; an activation or a reveal
 * fulfils the request. Each step runs in the transaction of the change that causes it.
 */
@Injectable()
export class CredentialDeliveryService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clients: ClientService,
    private readonly activation: ActivationService,
    private readonly handovers: HandoverService,
    private readonly state: AccessRequestStateService,
    private readonly tenants: TenantService,
    private readonly outbox: MailOutbox,
    private readonly audit: AuditService,
    private readonly policy: CredentialPolicyService,
  ) {}

  onModuleInit(): void {
    this.clients.onActivated((em, client, cause) => this.sendFirstHandover(em, client, cause));
    this.activation.onPasswordSet((em, link) =>
      this.state.delivered(em, link.tenantId, { userId: link.userId }, link.actor).then(() => undefined),
    );
  }

  /**
   * The client of approved requests is active (IT assigned its scopes): each such request whose
   * credentials have not gone out yet gets its handover to the technical contact, and the
   * requester is told. Not while the tenant's credential policy forbids secrets: the scopes are
   * assigned all the same, and the contact person adds a credential the policy allows.
   */
  async sendFirstHandover(em: EntityManager, client: ApiClient, cause?: Actor): Promise<void> {
    const now = new Date();
    const policy = await this.policy.policyOf(client.tenantId, em);
    if (newCredentialBreach({ kind: 'secret', createdAt: now, expiresAt: now }, policy, now)) return;
    // The system sends it, in the same HTTP request as the change that caused it (same request id).
    const actor: Actor = cause?.requestId ? { ...SYSTEM_ACTOR, requestId: cause.requestId } : SYSTEM_ACTOR;
    for (const request of await this.state.awaitingCredentials(em, client.tenantId, client.id)) {
      if (await this.handovers.sentFor(em, request.id)) continue;
      const handover = await this.handovers.create(
        client.tenantId,
        actor,
        client.clientId,
        { recipientEmail: request.technicalContactEmail ?? undefined },
        { accessRequestId: request.id, responsibleUserId: request.decidedByUserId },
        em,
      );
      await this.tellRequester(em, request, handover.recipientEmail, new Date(handover.expiresAt));
      await recordRequestEvent(this.audit, em, actor, 'access_request.handover_sent', request, {
        handoverId: handover.id,
        clientId: client.clientId,
        recipientEmail: handover.recipientEmail,
      });
    }
  }

  /**
   * The reveal: uses the link once, creates the secret (through ClientService, so it has the
   * current format and rules), audits the reveal with its time and source address, and fulfils
   * what it delivers — all in one transaction, on its one connection. Of concurrent reveals exactly
   * one gets here; the others answer that the link is used.
   */
  reveal(tenantId: string, token: string, source: string | null): Promise<RevealedCredentials> {
    // Nobody signed in reveals: the system acts for the link's holder, whose address each event keeps.
    const actor = source ? { ...SYSTEM_ACTOR, sourceAddress: source } : SYSTEM_ACTOR;
    return this.dataSource.transaction(async (em) => {
      const claimed = await this.handovers.claim(em, tenantId, token, source);
      const { clientId } = claimed.client;
      const secret = await this.clients.issueSecret(
        tenantId,
        actor,
        clientId,
        { displayName: `Handover to ${claimed.handover.recipientEmail}`.slice(0, 200) },
        em,
      );
      await this.handovers.recordReveal(em, claimed, actor, secret);
      await this.state.delivered(em, tenantId, { apiClientId: claimed.client.id }, actor, {
        handoverId: claimed.handover.id,
      });
      const tenant = await this.tenants.getById(tenantId, em);
      // Read through the transaction's connection: a second one, taken while this transaction
      // holds the link's row, ran the pool dry under a burst of reveals (every other reveal waits
      // on that row holding a connection of its own).
      const granted = (await this.clients.get(tenantId, clientId, em)).scopes;
      const authority = `${this.config.publicUrl}/${tenantId}`;
      return {
        tenantId,
        tenantName: tenant.displayName,
        authority,
        tokenEndpoint: `${authority}/oauth2/v2.0/token`,
        clientId,
        clientName: claimed.client.displayName,
        scopes: [...new Set(granted.map((scope) => `${scope.slice(0, scope.lastIndexOf('/'))}/.default`))],
        secret: secret.secretText,
        secretExpiresAt: secret.expiresAt,
        contact: await this.handovers.contactOf(claimed.handover, em),
      };
    });
  }

  /** The requester hears that the credentials went out (unless they are the recipient: that mail says it all). */
  private async tellRequester(em: EntityManager, request: AccessRequest, recipientEmail: string, expiresAt: Date) {
    if (request.requesterEmail.toLowerCase() === recipientEmail.toLowerCase()) return;
    const mail = handoverSentEmail({
      tenantName: (await this.tenants.getById(request.tenantId, em)).displayName,
      requesterName: request.requesterName,
      systemName: request.systemName ?? '',
      recipientEmail,
      expiresAt,
    });
    await this.outbox.enqueue(em, { tenantId: request.tenantId, to: request.requesterEmail, mail });
  }
}
