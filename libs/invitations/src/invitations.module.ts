import { Module } from '@nestjs/common';
import { AccountsModule } from '@gatehouse/accounts';
import { AuditModule } from '@gatehouse/audit';
import { DocsModule } from '@gatehouse/docs';
import { MailModule } from '@gatehouse/mail';
import { InvitationSweepService } from './invitation-sweep.service.js';
import { InvitationRepository } from './invitation.repository.js';
import { InvitationService } from './invitation.service.js';

@Module({
  imports: [AuditModule, AccountsModule, DocsModule, MailModule],
  providers: [InvitationRepository, InvitationService, InvitationSweepService],
  exports: [InvitationService, InvitationSweepService],
})
export class InvitationsModule {}
