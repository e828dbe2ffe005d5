import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type User, UserRepository } from '@gatehouse/accounts';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type Page, type PageRequest, decodeCursor, pageSize, toPage } from '@gatehouse/database';
import { SecretHasher, generateOpaqueSecret } from '@gatehouse/crypto';
import { DocService } from '@gatehouse/docs';
import type { Invitation, InvitationStatus } from './invitation.entity.js';
import { InvitationError, InvitationErrorCode } from './invitation.errors.js';
import { type InvitationLifetime, lifetimeDetails, lifetimeMinutes } from './invitation-lifetime.js';
import { InvitationMailer } from './invitation-mailer.js';
import { InvitationRepository } from './invitation.repository.js';
import { type InvitationView, effectiveStatus, toInvitationView } from './invitation.view.js';

export interface CreateInvitationInput extends InvitationLifetime {
  userId: string;
  sections: string[];
}

/** Invitations to documentation sections as staff manage them (admin API and console). */
@Injectable()
export class InvitationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly invitations: InvitationRepository,
    private readonly users: UserRepository,
    private readonly docs: DocService,
    private readonly mailer: InvitationMailer,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
  ) {}

  /** The invitation row, its outbox mail and its audit event commit together or not at all. */
  create(tenantId: string, actor: Actor, input: CreateInvitationInput, tx?: EntityManager): Promise<InvitationView> {
    const minutes = lifetimeMinutes(input);
    const slugs = [...new Set(input.sections)];
    const work = async (em: EntityManager) => {
      const user = await this.users.findById(tenantId, input.userId, em);
      if (!user) throw new InvitationError(InvitationErrorCode.UserNotFound, 'No such user.');
      refuseDisabled(user);
      await this.requireSections(em, tenantId, slugs);
      const token = generateOpaqueSecret();
      const now = new Date();
      const invitation = await this.invitations.insert(em, {
        tenantId,
        userId: user.id,
        invitedByUserId: actor.type === 'user' ? actor.userId : null,
        sectionSlugs: slugs,
        tokenHash: this.hasher.hash(token),
        status: 'pending',
        expiresAt: new Date(now.getTime() + minutes * 60_000),
        linkSentAt: now,
      });
      await this.mailer.send(em, user, invitation, token);
      await this.record(em, tenantId, actor, 'invitation.created', invitation, {
        userId: user.id,
        sections: slugs,
        ...lifetimeDetails(input),
      });
      return toInvitationView(invitation);
    };
    return tx ? work(tx) : this.dataSource.transaction(work);
  }

  async list(
    tenantId: string,
    filter: PageRequest & { status?: InvitationStatus; userId?: string; section?: string },
  ): Promise<Page<InvitationView>> {
    const size = pageSize(filter.limit);
    const rows = await this.invitations.page(tenantId, {
      status: filter.status,
      userId: filter.userId,
      section: filter.section,
      after: decodeCursor(filter.cursor),
      take: size + 1,
    });
    return toPage(rows, size, (i) => ({ at: i.createdAt, id: i.id }), toInvitationView);
  }

  async get(tenantId: string, id: string): Promise<InvitationView> {
    const invitation = await this.invitations.findById(tenantId, id);
    if (!invitation) throw notFound();
    return toInvitationView(invitation);
  }

  /**
   * A new token and a new expiry, mailed again; the old link stops working in the same commit and
   * says from then on that a newer one was sent. `lifetime` in hours when a number (168 when absent).
   */
  resend(tenantId: string, actor: Actor, id: string, lifetime?: InvitationLifetime | number): Promise<InvitationView> {
    const given = typeof lifetime === 'number' ? { expiresInHours: lifetime } : (lifetime ?? {});
    const minutes = lifetimeMinutes(given);
    return this.dataSource.transaction(async (em) => {
      const invitation = await this.requirePending(em, tenantId, id);
      const user = await this.users.findById(tenantId, invitation.userId, em);
      if (!user) throw new InvitationError(InvitationErrorCode.UserNotFound, 'The invited user no longer exists.');
      refuseDisabled(user);
      const token = generateOpaqueSecret();
      invitation.linkSentAt = new Date();
      invitation.expiresAt = new Date(invitation.linkSentAt.getTime() + minutes * 60_000);
      await this.invitations.replaceToken(
        em,
        invitation,
        this.hasher.hash(token),
        invitation.expiresAt,
        invitation.linkSentAt,
      );
      await this.mailer.send(em, user, invitation, token);
      await this.record(em, tenantId, actor, 'invitation.resent', invitation, {
        userId: user.id,
        expiresAt: invitation.expiresAt,
        ...lifetimeDetails(given),
      });
      return toInvitationView((await this.invitations.findById(tenantId, id, em))!);
    });
  }

  revoke(tenantId: string, actor: Actor, id: string): Promise<InvitationView> {
    return this.dataSource.transaction(async (em) => {
      const invitation = await this.requirePending(em, tenantId, id);
      invitation.status = 'revoked';
      invitation.revokedAt = new Date();
      const saved = await this.invitations.save(em, invitation);
      await this.record(em, tenantId, actor, 'invitation.revoked', saved, { userId: saved.userId });
      return toInvitationView(saved);
    });
  }

  private async requirePending(em: EntityManager, tenantId: string, id: string): Promise<Invitation> {
    const invitation = await this.invitations.findById(tenantId, id, em, true);
    if (!invitation) throw notFound();
    const status = effectiveStatus(invitation);
    if (status !== 'pending') throw new InvitationError(InvitationErrorCode.NotPending, `The invitation is ${status}.`);
    return invitation;
  }

  private async requireSections(em: EntityManager, tenantId: string, slugs: string[]): Promise<void> {
    const found = await this.docs.findBySlugs(tenantId, slugs, em);
    const missing = slugs.filter((slug) => !found.some((s) => s.slug === slug));
    if (missing.length) {
      throw new InvitationError(
        InvitationErrorCode.UnknownSections,
        `Unknown sections: ${missing.join(', ')}`,
        missing,
      );
    }
  }

  private record(
    em: EntityManager,
    tenantId: string,
    actor: Actor,
    action: string,
    invitation: Invitation,
    details: Record<string, unknown>,
  ) {
    return this.audit.record(em, {
      tenantId,
      actor,
      action,
      targetType: 'invitation',
      targetId: invitation.id,
      details,
    });
  }
}

/** A disabled account cannot log in to follow a link: inviting it would only mail a dead end. */
function refuseDisabled(user: User): void {
  if (user.status === 'disabled') {
    throw new InvitationError(
      InvitationErrorCode.UserDisabled,
      'The user account is disabled; enable it before inviting the user.',
    );
  }
}

export function notFound(): InvitationError {
  return new InvitationError(InvitationErrorCode.NotFound, 'No such invitation.');
}
