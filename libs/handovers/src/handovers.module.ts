import { Module } from '@nestjs/common';
import { AuditModule } from '@gatehouse/audit';
import { ClientsModule } from '@gatehouse/clients';
import { MailModule } from '@gatehouse/mail';
import { TenantsModule } from '@gatehouse/tenants';
import { HandoverRepository } from './handover.repository.js';
import { HandoverResendService } from './handover-resend.service.js';
import { HandoverService } from './handover.service.js';
import { HandoverSweepService } from './handover-sweep.service.js';

/** One-time credential handovers: the link, its reveal (with provisioning), its expiry. */
@Module({
  imports: [AuditModule, ClientsModule, MailModule, TenantsModule],
  providers: [HandoverRepository, HandoverService, HandoverResendService, HandoverSweepService],
  exports: [HandoverService, HandoverResendService, HandoverSweepService],
})
export class HandoversModule {}
