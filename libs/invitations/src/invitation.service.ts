import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type User, UserRepository } from '@gatehouse/accounts';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type Page, type PageRequest, decodeCursor, pageSize, toPage } from '@gatehouse/database';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { SecretHasher, generateOpaqueSecret } from '@gatehouse/crypto';
import { DocService, type SectionSummary } from '@gatehouse/docs';
import { MailOutbox, invitationEmail, linkFrom } from '@gatehouse/mail';
import type { Invitation, InvitationStatus } from './invitation.entity.js';
import { InvitationError, InvitationErrorCode } from './invitation.errors.js';
import { InvitationRepository } from './invitation.repository.js';
import { type InvitationView, effectiveStatus, toInvitationView } from './invitation.view.js';

export const DEFAULT_INVITATION_HOURS = 168;
export const MAX_INVITATION_HOURS = 720;

export interface CreateInvitationInput {
  userId: string;
  sections: string[];
  expiresInHours?: number;
}

export interface InvitationLookup {
  invitationId: string;
  userId: string;
  status: 'pending' | 'accepted' | 'expired' | 'revoked';
  sections: { slug: string; title: string }[];
  expiresAt: Date;
  contactEmail?: string;
}

/** Invitations to documentation sections: created and managed by the admin API, used by the Web UI. */
@Injectable()
export class InvitationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly invitations: InvitationRepository,
    private readonly users: UserRepository,
    private readonly docs: DocService,
    private readonly outbox: MailOutbox,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
  ) {}

  /** The invitation row, its outbox mail and its audit event commit together or not at all. */
  create(tenantId: string, actor: Actor, input: CreateInvitationInput, tx?: EntityManager): Promise<InvitationView> {
    const hours = checkHours(input.expiresInHours);
    const slugs = [...new Set(input.sections)];
    const work = async (em: EntityManager) => {
      const user = await this.users.findById(tenantId, input.userId, em);
      if (!user) throw new InvitationError(InvitationErrorCode.UserNotFound, 'No such user.');
      refuseDisabled(user);
      const sections = await this.requireSections(em, tenantId, slugs);
      const token = generateOpaqueSecret();
      const invitation = await this.invitations.insert(em, {
        tenantId,
        userId: user.id,
        invitedByUserId: actor.type === 'user' ? actor.userId : null,
        sectionSlugs: slugs,
        tokenHash: this.hasher.hash(token),
        status: 'pending',
        expiresAt: new Date(Date.now() + hours * 3_600_000),
      });
      await this.mail(em, user, invitation, sections, token);
      await this.record(em, tenantId, actor, 'invitation.created', invitation, {
        userId: user.id,
        sections: slugs,
        expiresInHours: hours,
      });
      return toInvitationView(invitation);
    };
    return tx ? work(tx) : this.dataSource.transaction(work);
  }

  async list(tenantId: string, filter: PageRequest & { status?: InvitationStatus }): Promise<Page<InvitationView>> {
    const size = pageSize(filter.limit);
    const rows = await this.invitations.page(tenantId, {
      status: filter.status,
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

  /** A new token and a new expiry, mailed again; the old link stops working in the same commit. */
  resend(tenantId: string, actor: Actor, id: string, expiresInHours?: number): Promise<InvitationView> {
    const hours = checkHours(expiresInHours);
    return this.dataSource.transaction(async (em) => {
      const invitation = await this.requirePending(em, tenantId, id);
      const user = await this.users.findById(tenantId, invitation.userId, em);
      if (!user) throw new InvitationError(InvitationErrorCode.UserNotFound, 'The invited user no longer exists.');
      refuseDisabled(user);
      const token = generateOpaqueSecret();
      invitation.expiresAt = new Date(Date.now() + hours * 3_600_000);
      await this.invitations.setToken(em, invitation, this.hasher.hash(token), invitation.expiresAt);
      const sections = await this.docs.findBySlugs(tenantId, invitation.sectionSlugs, em);
      await this.mail(em, user, invitation, sections, token);
      await this.record(em, tenantId, actor, 'invitation.resent', invitation, {
        userId: user.id,
        expiresAt: invitation.expiresAt,
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

  /** What a link stands for (a GET of the link page: consumes nothing). Unknown token → NotFound. */
  async lookup(tenantId: string, token: string): Promise<InvitationLookup> {
    const invitation = await this.invitations.findByTokenHash(tenantId, this.hasher.hash(token));
    if (!invitation) throw notFound();
    const sections = await this.docs.findBySlugs(tenantId, invitation.sectionSlugs);
    const inviter = invitation.invitedByUserId ? await this.users.findById(tenantId, invitation.invitedByUserId) : null;
    return {
      invitationId: invitation.id,
      userId: invitation.userId,
      status: effectiveStatus(invitation),
      sections,
      expiresAt: invitation.expiresAt,
      ...(inviter ? { contactEmail: inviter.email } : {}),
    };
  }

  /** Accepts a link once, for its own user only; opens the sections in the same transaction. */
  accept(tenantId: string, userId: string, token: string): Promise<{ sections: string[] }> {
    const tokenHash = this.hasher.hash(token);
    return this.dataSource.transaction(async (em) => {
      const accepted = await this.invitations.accept(em, tenantId, tokenHash, userId);
      if (!accepted) throw await this.whyNotAccepted(em, tenantId, tokenHash, userId);
      const sections = await this.docs.grant(em, tenantId, userId, accepted.sectionSlugs);
      const actor: Actor = { type: 'user', userId, clientId: null };
      await this.record(em, tenantId, actor, 'invitation.accepted', accepted, { userId, sections });
      return { sections };
    });
  }

  private async whyNotAccepted(
    em: EntityManager,
    tenantId: string,
    tokenHash: Buffer,
    userId: string,
  ): Promise<InvitationError> {
    const invitation = await this.invitations.findByTokenHash(tenantId, tokenHash, em);
    if (!invitation) return notFound();
    if (invitation.userId !== userId)
      return new InvitationError(InvitationErrorCode.WrongUser, 'This invitation is for another user.');
    switch (effectiveStatus(invitation)) {
      case 'accepted':
        return new InvitationError(InvitationErrorCode.AlreadyAccepted, 'This invitation has already been accepted.');
      case 'revoked':
        return new InvitationError(InvitationErrorCode.Revoked, 'This invitation has been revoked.');
      default:
        return new InvitationError(InvitationErrorCode.Expired, 'This invitation has expired.');
    }
  }

  private async requirePending(em: EntityManager, tenantId: string, id: string): Promise<Invitation> {
    const invitation = await this.invitations.findById(tenantId, id, em, true);
    if (!invitation) throw notFound();
    const status = effectiveStatus(invitation);
    if (status !== 'pending') throw new InvitationError(InvitationErrorCode.NotPending, `The invitation is ${status}.`);
    return invitation;
  }

  private async requireSections(em: EntityManager, tenantId: string, slugs: string[]): Promise<SectionSummary[]> {
    const found = await this.docs.findBySlugs(tenantId, slugs, em);
    const missing = slugs.filter((slug) => !found.some((s) => s.slug === slug));
    if (missing.length)
      throw new InvitationError(
        InvitationErrorCode.UnknownSections,
        `Unknown sections: ${missing.join(', ')}`,
        missing,
      );
    return found;
  }

  private async mail(em: EntityManager, user: User, invitation: Invitation, sections: SectionSummary[], token: string) {
    const mail = invitationEmail({
      displayName: user.displayName,
      sections: sections.map((s) => s.title),
      link: linkFrom(this.config.publicUrl, 'invitations', token),
      expiresAt: invitation.expiresAt,
    });
    await this.outbox.enqueue(em, { tenantId: invitation.tenantId, to: user.email, mail });
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

function checkHours(hours: number | undefined): number {
  const value = hours ?? DEFAULT_INVITATION_HOURS;
  if (!Number.isInteger(value) || value < 1 || value > MAX_INVITATION_HOURS) {
    throw new InvitationError(
      InvitationErrorCode.InvalidExpiry,
      `expiresInHours must be an integer from 1 to ${MAX_INVITATION_HOURS}.`,
    );
  }
  return value;
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

function notFound(): InvitationError {
  return new InvitationError(InvitationErrorCode.NotFound, 'No such invitation.');
}
