import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ACCOUNT_LINK_HOURS, ActivationService, type User } from '@gatehouse/accounts';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { DocService } from '@gatehouse/docs';
import { MailOutbox, invitationEmail, invitationToChoosePasswordEmail, linkFrom } from '@gatehouse/mail';
import type { Invitation } from './invitation.entity.js';

/**
 * Until when an invitation link can set the invited user's password: a link that sets a password
 * lives 24 hours at most (NIST 800-63B-4, as activation links), and never past the invitation.
 */
export function passwordWindowEnd(invitation: Pick<Invitation, 'linkSentAt' | 'expiresAt'>): Date {
  const end = invitation.linkSentAt.getTime() + ACCOUNT_LINK_HOURS * 3_600_000;
  return new Date(Math.min(end, invitation.expiresAt.getTime()));
}

/** Queues the invitation mail in the caller's transaction: for someone without a password, the one that leads through choosing one. */
@Injectable()
export class InvitationMailer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly docs: DocService,
    private readonly accounts: ActivationService,
    private readonly outbox: MailOutbox,
  ) {}

  async send(em: EntityManager, user: User, invitation: Invitation, token: string): Promise<void> {
    const sections = await this.docs.findBySlugs(invitation.tenantId, invitation.sectionSlugs, em);
    const input = {
      displayName: user.displayName,
      sections: sections.map((s) => s.title),
      link: linkFrom(this.config.publicUrl, 'invitations', token),
      expiresAt: invitation.expiresAt,
    };
    const { hasPassword } = await this.accounts.passwordState(invitation.tenantId, user.id, em);
    const mail = hasPassword
      ? invitationEmail(input)
      : invitationToChoosePasswordEmail({ ...input, username: user.username, passwordUntil: passwordWindowEnd(invitation) });
    await this.outbox.enqueue(em, { tenantId: invitation.tenantId, to: user.email, mail });
  }
}
