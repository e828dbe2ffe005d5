import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { MailOutbox, isSingleAddress, webhookTroubleEmail } from '@gatehouse/mail';
import { type AttemptResult, type ClaimedSubscription, type DueDelivery, WebhookDeliveryRepository } from './webhook-delivery.repository.js';

const withoutQuery = (url: string) => url.replace(/[?#].*$/s, '');

/**
 * A webhook that stops taking events: given up after 3 days (marked failing) or gone (410,
 * disabled). In one transaction: the delivery's last attempt, the state, the audit event and a
 * mail to each Administrator of the tenant (outbox), the latter two once per change of state.
 */
@Injectable()
export class WebhookTrouble {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly audit: AuditService,
    private readonly outbox: MailOutbox,
  ) {}

  givenUp(subscription: ClaimedSubscription, delivery: DueDelivery, result: AttemptResult): Promise<void> {
    const reason = `A ${delivery.eventType} event was given up after 3 days of failed attempts (last: ${result.error ?? 'no answer'}).`;
    return this.stop(subscription, delivery, result, 'failing', reason);
  }

  gone(subscription: ClaimedSubscription, delivery: DueDelivery, result: AttemptResult): Promise<void> {
    return this.stop(subscription, delivery, result, 'disabled', 'The endpoint answered 410 Gone.');
  }

  private async stop(subscription: ClaimedSubscription, delivery: DueDelivery, result: AttemptResult, state: 'failing' | 'disabled', reason: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.deliveries.failed(result, 0, true, em);
      if (!(await this.deliveries.setState(em, subscription.id, state, reason))) return;
      const { tenantId } = subscription;
      const url = withoutQuery(subscription.url);
      await this.audit.record(em, {
        tenantId,
        actor: SYSTEM_ACTOR,
        action: state === 'disabled' ? 'webhook.disabled' : 'webhook.failing',
        targetType: 'webhook',
        targetId: subscription.id,
        details: { url, reason, deliveryId: delivery.id, eventId: delivery.eventId, lastStatusCode: result.status },
      });
      const mail = webhookTroubleEmail({ url, state, event: delivery.eventType });
      const addresses = (await this.deliveries.administratorAddresses(em, tenantId)).filter(isSingleAddress);
      await this.outbox.enqueueMany(em, addresses.map((to) => ({ tenantId, to, mail })));
    });
  }
}
