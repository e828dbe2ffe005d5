import { Module } from '@nestjs/common';
import { AuditModule } from '@gatehouse/audit';
import { EmailAdminService } from './email-admin.service.js';
import { EmailRepository } from './email.repository.js';
import { MailOutbox } from './mail-outbox.js';
import { MailTransport } from './mail-transport.js';
import { OutboxDeliveryService } from './outbox-delivery.service.js';

@Module({
  imports: [AuditModule],
  providers: [EmailRepository, MailOutbox, MailTransport, OutboxDeliveryService, EmailAdminService],
  exports: [MailOutbox, OutboxDeliveryService, EmailAdminService, EmailRepository],
})
export class MailModule {}
