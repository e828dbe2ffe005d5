import { Module } from '@nestjs/common';
import { AccountsModule } from '@gatehouse/accounts';
import { AuditModule } from '@gatehouse/audit';
import { DocsModule } from '@gatehouse/docs';
import { MailModule } from '@gatehouse/mail';
import { InvitationLinkService } from './invitation-link.service.js';
import { InvitationMailer } from './invitation-mailer.js';
import { InvitationSweepService } from './invitation-sweep.service.js';
import { InvitationRepository } from './invitation.repository.js';
import { InvitationService } from './invitation.service.js';

@Module({
  imports: [AuditModule, AccountsModule, DocsModule, MailModule],
  providers: [InvitationRepository, InvitationMailer, InvitationService, InvitationLinkService, InvitationSweepService],
  exports: [InvitationService, InvitationLinkService, InvitationSweepService],
})
export class InvitationsModule {}
