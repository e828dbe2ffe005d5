import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActivationService, UserRepository } from '@gatehouse/accounts';
import { type Actor, AuditService } from '@gatehouse/audit';
import { SecretHasher } from '@gatehouse/crypto';
import { DocService } from '@gatehouse/docs';
import type { Invitation, InvitationStatus } from './invitation.entity.js';
import { InvitationError, InvitationErrorCode } from './invitation.errors.js';
import { passwordWindowEnd } from './invitation-mailer.js';
import { InvitationRepository } from './invitation.repository.js';
import { notFound } from './invitation.service.js';
import { effectiveStatus } from './invitation.view.js';

/** A link's state: an invitation's, or `superseded` when a resend replaced the link. */
export type InvitationLinkStatus = InvitationStatus | 'superseded';

export interface InvitationLookup {
  invitationId: string;
  userId: string;
  username: string;
  status: InvitationLinkStatus;
  sections: { slug: string; title: string }[];
  expiresAt: Date;
  /** When the invitation's newest link was sent (for a superseded link: the one that replaced it). */
  linkSentAt: Date;
  /** Whom to ask about the link: the person who sent it (name and address). */
  contactEmail?: string;
  contactName?: string;
  /** Whether the invited user's account is enabled (a disabled one cannot follow the link). */
  userActive: boolean;
  /** Whether the invited user can log in with a password. */
  userHasPassword: boolean;
  /** For a pending link of a user without a password: until when it can set one; else `null`. */
  passwordUntil: Date | null;
}

/** Invitation links as the invited person follows them in the Web UI: look, choose a password, accept. */
@Injectable()
export class InvitationLinkService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly invitations: InvitationRepository,
    private readonly users: UserRepository,
    private readonly accounts: ActivationService,
    private readonly docs: DocService,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
  ) {}

  /** What a link stands for (the GET of the link page: consumes nothing). Unknown token → NotFound. */
  async lookup(tenantId: string, token: string): Promise<InvitationLookup> {
    const tokenHash = this.hasher.hash(token);
    const current = await this.invitations.findByTokenHash(tenantId, tokenHash);
    const invitation = current ?? (await this.invitations.findBySupersededTokenHash(tenantId, tokenHash));
    const user = invitation ? await this.users.findById(tenantId, invitation.userId) : null;
    if (!invitation || !user) throw notFound();
    const sections = await this.docs.findBySlugs(tenantId, invitation.sectionSlugs);
    const inviter = invitation.invitedByUserId ? await this.users.findById(tenantId, invitation.invitedByUserId) : null;
    const { hasPassword } = await this.accounts.passwordState(tenantId, user.id);
    const status = current ? effectiveStatus(invitation) : 'superseded';
    const window = passwordWindowEnd(invitation);
    const canSetPassword = status === 'pending' && !hasPassword && user.status === 'active' && window.getTime() > Date.now();
    return {
      invitationId: invitation.id,
      userId: invitation.userId,
      username: user.username,
      status,
      sections,
      expiresAt: invitation.expiresAt,
      linkSentAt: invitation.linkSentAt,
      ...(inviter ? { contactEmail: inviter.email, contactName: inviter.displayName } : {}),
      userActive: user.status === 'active',
      userHasPassword: hasPassword,
      passwordUntil: canSetPassword ? window : null,
    };
  }

  /**
   * The first half of the one flow for an invited person who has no password: the link (pending,
   * sent less than 24 hours ago) sets the password they chose (validated and hashed by the
   * caller). The invitation stays pending, to be accepted once they are signed in. Of two
   * concurrent uses one sets the password, the other finds it set.
   */
  setPassword(tenantId: string, token: string, passwordHash: string, sourceAddress?: string): Promise<{ userId: string }> {
    const tokenHash = this.hasher.hash(token);
    return this.dataSource.transaction(async (em) => {
      const invitation = await this.invitations.findByTokenHash(tenantId, tokenHash, em, true);
      if (!invitation) throw await this.whyUnknown(em, tenantId, tokenHash);
      const refused = statusRefusal(effectiveStatus(invitation));
      if (refused) throw refused;
      const user = await this.users.findById(tenantId, invitation.userId, em, true);
      if (!user || user.status !== 'active') throw notFound();
      if ((await this.accounts.passwordState(tenantId, user.id, em)).hasPassword) {
        throw new InvitationError(InvitationErrorCode.PasswordAlreadySet, 'You have a password already: log in to accept.');
      }
      if (passwordWindowEnd(invitation).getTime() <= Date.now()) {
        throw new InvitationError(InvitationErrorCode.PasswordWindowClosed, 'This link can no longer set a password.');
      }
      await this.accounts.setChosenPassword(em, tenantId, user.id, passwordHash, 'invitation', sourceAddress, true);
      return { userId: user.id };
    });
  }

  /** Accepts a link once, for its own user only; opens the sections in the same transaction. */
  accept(tenantId: string, userId: string, token: string): Promise<{ sections: string[] }> {
    const tokenHash = this.hasher.hash(token);
    return this.dataSource.transaction(async (em) => {
      const accepted = await this.invitations.accept(em, tenantId, tokenHash, userId);
      if (!accepted) throw await this.whyNotAccepted(em, tenantId, tokenHash, userId);
      const sections = await this.docs.grant(em, tenantId, userId, accepted.sectionSlugs);
      const actor: Actor = { type: 'user', userId, clientId: null };
      await this.audit.record(em, {
        tenantId,
        actor,
        action: 'invitation.accepted',
        targetType: 'invitation',
        targetId: accepted.id,
        details: { userId, sections },
      });
      return { sections };
    });
  }

  private async whyNotAccepted(em: EntityManager, tenantId: string, tokenHash: Buffer, userId: string): Promise<InvitationError> {
    const invitation = await this.invitations.findByTokenHash(tenantId, tokenHash, em);
    if (!invitation) return this.whyUnknown(em, tenantId, tokenHash);
    const refused = statusRefusal(effectiveStatus(invitation));
    if (refused) return refused;
    if (invitation.userId !== userId) return new InvitationError(InvitationErrorCode.WrongUser, 'This invitation is for another user.');
    return new InvitationError(InvitationErrorCode.Expired, 'This invitation has expired.');
  }

  private async whyUnknown(em: EntityManager, tenantId: string, tokenHash: Buffer): Promise<InvitationError> {
    const replaced: Invitation | null = await this.invitations.findBySupersededTokenHash(tenantId, tokenHash, em);
    return replaced ? new InvitationError(InvitationErrorCode.Superseded, 'A newer link was sent for this invitation.') : notFound();
  }
}

/** Why a link of this status cannot be used, or `null` while it is pending. */
function statusRefusal(status: InvitationStatus): InvitationError | null {
  switch (status) {
    case 'accepted':
      return new InvitationError(InvitationErrorCode.AlreadyAccepted, 'This invitation has already been accepted.');
    case 'revoked':
      return new InvitationError(InvitationErrorCode.Revoked, 'This invitation has been revoked.');
    case 'expired':
      return new InvitationError(InvitationErrorCode.Expired, 'This invitation has expired.');
    case 'pending':
      return null;
  }
}
