import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type ApiClient, ClientError, ClientErrorCode, ClientService, CredentialPolicyService } from '@gatehouse/clients';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { SecretHasher, generateOpaqueSecret } from '@gatehouse/crypto';
import { MailOutbox, handoverEmail, isSingleAddress, linkFrom } from '@gatehouse/mail';
import { TenantService } from '@gatehouse/tenants';
import type { CredentialHandover, HandoverStatus } from './credential-handover.entity.js';
import { HandoverError, HandoverErrorCode } from './handover.errors.js';
import { type HandoverContact, HandoverRepository } from './handover.repository.js';
import { type HandoverView, effectiveHandoverStatus, toHandoverView } from './handover.view.js';

export const DEFAULT_HANDOVER_HOURS = 72;
export const MAX_HANDOVER_HOURS = 168;

export interface CreateHandoverInput {
  /** Defaults to the client's contact address. */
  recipientEmail?: string;
  expiresInHours?: number;
}

/** A handover that delivers an approved access request (it went out by itself, or was sent again). */
export interface HandoverOrigin {
  accessRequestId: string | null;
  /** Told if it expires unrevealed: the approver. */
  responsibleUserId: string | null;
}

/** What a link stands for, as its page shows it before the reveal. */
export interface HandoverLookup {
  status: HandoverStatus;
  tenantName: string;
  clientName: string;
  clientId: string;
  expiresAt: Date;
  revealedAt: Date | null;
  /** Whom the recipient asks about it (a new link, a revoked secret); `null`: nobody active any more. */
  contact: HandoverContact | null;
}

/** A handover claimed by a reveal, inside the reveal's transaction. */
export interface ClaimedHandover {
  handover: CredentialHandover;
  client: ApiClient;
}

/** One-time credential handovers: created and managed through the admin API, used through their link. */
@Injectable()
export class HandoverService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly handovers: HandoverRepository,
    private readonly clients: ClientService,
    private readonly tenants: TenantService,
    private readonly outbox: MailOutbox,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
    private readonly policy: CredentialPolicyService,
  ) {}

  /**
   * Mails the recipient a link that may create ONE secret of the client; nothing secret exists
   * yet. Only whoever may manage the client's credentials may send it (the owner rule of
   * operator clients is ClientService's), and only while the tenant's credential policy allows
   * secrets.
   */
  create(
    tenantId: string,
    actor: Actor,
    clientId: string,
    input: CreateHandoverInput,
    origin?: HandoverOrigin,
    em?: EntityManager,
  ): Promise<HandoverView> {
    const hours = checkHours(input.expiresInHours);
    const work = async (tx: EntityManager) => {
      const client = await this.clients.requireManageable(tenantId, actor, clientId, tx);
      if (client.state === 'disabled') {
        throw new HandoverError(
          HandoverErrorCode.ClientDisabled,
          'The client is disabled; enable it before sending credentials.',
        );
      }
      // The reveal creates a secret (its lifetime capped at the policy's maximum): a policy that
      // forbids secrets refuses the handover now rather than its recipient later.
      const now = new Date();
      await this.policy.assertAllowed(tenantId, tx, { kind: 'secret', createdAt: now, expiresAt: now }, null);
      const recipientEmail = recipientOf(input.recipientEmail, client);
      const token = generateOpaqueSecret();
      const handover = await this.handovers.insert(tx, {
        tenantId,
        apiClientId: client.id,
        accessRequestId: origin?.accessRequestId ?? null,
        recipientEmail,
        tokenHash: this.hasher.hash(token),
        status: 'pending',
        expiresAt: new Date(Date.now() + hours * 3_600_000),
        createdByUserId: actor.userId,
        responsibleUserId: origin ? origin.responsibleUserId : actor.userId,
      });
      await this.mailLink(tx, handover, client, token);
      await this.record(tx, actor, 'client.handover.created', handover, client, {
        recipientEmail,
        expiresAt: handover.expiresAt,
        accessRequestId: handover.accessRequestId,
      });
      return toHandoverView(handover, client.clientId);
    };
    return em ? work(em) : this.dataSource.transaction(work);
  }

  private async mailLink(tx: EntityManager, handover: CredentialHandover, client: ApiClient, token: string) {
    const mail = handoverEmail({
      contact: await this.contactOf(handover, tx),
      tenantName: (await this.tenants.getById(handover.tenantId, tx)).displayName,
      clientName: client.displayName,
      clientId: client.clientId,
      link: linkFrom(this.config.publicUrl, 'handover', token),
      expiresAt: handover.expiresAt,
    });
    await this.outbox.enqueue(tx, { tenantId: handover.tenantId, to: handover.recipientEmail, mail });
  }

  /** The client's handovers, newest first (never a token or a secret). */
  async list(tenantId: string, clientId: string): Promise<HandoverView[]> {
    const client = await this.clients.findByClientId(tenantId, clientId);
    if (!client) throw new ClientError(ClientErrorCode.NotFound, 'No such client.');
    return (await this.handovers.ofClient(tenantId, client.id)).map((h) => toHandoverView(h, client.clientId));
  }

  /** A pending link dies; after the reveal, the secret it created is revoked. */
  revoke(tenantId: string, actor: Actor, id: string): Promise<HandoverView> {
    return this.dataSource.transaction(async (em) => {
      const handover = await this.handovers.findById(tenantId, id, em, true);
      if (!handover) throw notFound();
      const { clientId } = handover.apiClient!;
      const client = await this.clients.requireManageable(tenantId, actor, clientId, em);
      const status = effectiveHandoverStatus(handover);
      if (status !== 'pending' && status !== 'revealed') {
        throw new HandoverError(
          HandoverErrorCode.NotRevocable,
          `The handover is ${status}; there is nothing to revoke.`,
        );
      }
      if (status === 'revealed' && handover.secretKeyId) {
        await this.clients.revokeSecret(tenantId, actor, clientId, handover.secretKeyId, em);
      }
      handover.status = 'revoked';
      handover.revokedAt = new Date();
      const saved = await this.handovers.save(em, handover);
      await this.record(em, actor, 'client.handover.revoked', saved, client, { was: status, keyId: saved.secretKeyId });
      return toHandoverView(saved, clientId);
    });
  }

  /**
   * Inside the caller's transaction: revokes every usable pending handover addressed to this
   * person or made for these clients (their owner was given a first role: SECURITY 55). Audited.
   */
  async revokePendingFor(
    em: EntityManager,
    tenantId: string,
    actor: Actor,
    target: { recipientEmail: string; apiClientIds: string[] },
    reason: string,
  ): Promise<Array<{ id: string; apiClientId: string }>> {
    const revoked = await this.handovers.revokePending(em, tenantId, target.recipientEmail, target.apiClientIds);
    for (const handover of revoked) {
      await this.audit.record(em, {
        tenantId,
        actor,
        action: 'client.handover.revoked',
        targetType: 'client',
        targetId: handover.clientId,
        details: { handoverId: handover.id, was: 'pending', reason },
      });
    }
    return revoked;
  }

  /** What a link stands for (the GET of its page: consumes nothing). Unknown token → NotFound. */
  async lookup(tenantId: string, token: string): Promise<HandoverLookup> {
    const handover = await this.handovers.findByTokenHash(tenantId, this.hasher.hash(token));
    if (!handover?.apiClient) throw notFound();
    const tenant = await this.tenants.getById(tenantId);
    return {
      status: effectiveHandoverStatus(handover),
      tenantName: tenant.displayName,
      clientName: handover.apiClient.displayName,
      clientId: handover.apiClient.clientId,
      expiresAt: handover.expiresAt,
      revealedAt: handover.revealedAt,
      contact: await this.contactOf(handover),
    };
  }

  /** The person responsible for a handover (the approver of its request, or its sender), if still active. */
  contactOf(handover: Pick<CredentialHandover, 'tenantId' | 'responsibleUserId' | 'createdByUserId'>, em?: EntityManager): Promise<HandoverContact | null> {
    return this.handovers.contact(handover.tenantId, [handover.responsibleUserId, handover.createdByUserId], em);
  }

  /**
   * Uses the link once, inside the reveal's transaction: of two concurrent reveals exactly one
   * gets the handover; the other gets the reason it cannot (already revealed, expired, revoked).
   */
  async claim(em: EntityManager, tenantId: string, token: string, source: string | null): Promise<ClaimedHandover> {
    const tokenHash = this.hasher.hash(token);
    const id = await this.handovers.claim(em, tenantId, tokenHash, source);
    if (!id) throw await this.whyNotClaimed(em, tenantId, tokenHash);
    const handover = (await this.handovers.findById(tenantId, id, em))!;
    return { handover, client: handover.apiClient! };
  }

  /** Binds the secret the reveal created to its handover, audited with the time and source address. */
  async recordReveal(
    em: EntityManager,
    claimed: ClaimedHandover,
    actor: Actor,
    secret: { keyId: string; hint: string },
  ) {
    const { handover, client } = claimed;
    handover.secretKeyId = secret.keyId;
    await this.handovers.save(em, handover);
    await this.record(em, actor, 'client.handover.revealed', handover, client, {
      keyId: secret.keyId,
      hint: secret.hint,
      recipientEmail: handover.recipientEmail,
      revealedAt: handover.revealedAt,
      sourceAddress: handover.revealedFrom,
    });
  }

  /** Whether an access request already had its handover sent. */
  async sentFor(em: EntityManager, accessRequestId: string): Promise<boolean> {
    return (await this.handovers.countForRequest(em, accessRequestId)) > 0;
  }

  private async whyNotClaimed(em: EntityManager, tenantId: string, tokenHash: Buffer): Promise<HandoverError> {
    const handover = await this.handovers.findByTokenHash(tenantId, tokenHash, em);
    if (!handover) return notFound();
    switch (effectiveHandoverStatus(handover)) {
      case 'revealed':
        return new HandoverError(HandoverErrorCode.AlreadyRevealed, 'These credentials have already been revealed.');
      case 'revoked':
        return new HandoverError(HandoverErrorCode.Revoked, 'This handover has been revoked.');
      default:
        return new HandoverError(HandoverErrorCode.Expired, 'This handover has expired.');
    }
  }

  private record(
    em: EntityManager,
    actor: Actor,
    action: string,
    handover: CredentialHandover,
    client: ApiClient,
    details: Record<string, unknown>,
  ) {
    return this.audit.record(em, {
      tenantId: handover.tenantId,
      actor,
      action,
      targetType: 'client',
      targetId: client.clientId,
      details: { handoverId: handover.id, ...details },
    });
  }
}

function checkHours(hours: number | undefined): number {
  const value = hours ?? DEFAULT_HANDOVER_HOURS;
  if (!Number.isInteger(value) || value < 1 || value > MAX_HANDOVER_HOURS) {
    throw new HandoverError(
      HandoverErrorCode.InvalidExpiry,
      `expiresInHours must be an integer from 1 to ${MAX_HANDOVER_HOURS}.`,
    );
  }
  return value;
}

function recipientOf(given: string | undefined, client: ApiClient): string {
  const recipient = given ?? client.contactEmail;
  if (!recipient) {
    throw new HandoverError(HandoverErrorCode.NoRecipient, 'The client has no contact address; name a recipientEmail.');
  }
  if (!isSingleAddress(recipient)) {
    throw new HandoverError(
      HandoverErrorCode.InvalidRecipient,
      'The recipient must be exactly one plain email address.',
    );
  }
  return recipient;
}

function notFound(): HandoverError {
  return new HandoverError(HandoverErrorCode.NotFound, 'No such handover.');
}
