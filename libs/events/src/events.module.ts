import { Module } from '@nestjs/common';
import { AuditModule } from '@gatehouse/audit';
import { MailModule } from '@gatehouse/mail';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookDeliveryService } from './webhook-delivery.service.js';
import { WebhookRepository } from './webhook.repository.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhookService } from './webhook.service.js';
import { WebhookTrouble } from './webhook-trouble.js';

/** Events out (§13): webhook subscriptions and their delivery. */
@Module({
  imports: [AuditModule, MailModule],
  providers: [WebhookRepository, WebhookSecrets, WebhookService, WebhookDeliveryRepository, WebhookTrouble, WebhookDeliveryService],
  exports: [WebhookService, WebhookDeliveryService],
})
export class EventsModule {}
