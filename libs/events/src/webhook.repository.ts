import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type CursorPosition, keysetCondition, keysetKey } from '@gatehouse/database';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookSubscription } from './webhook-subscription.entity.js';

/** Subscriptions and their delivery log, always within one tenant. */
@Injectable()
export class WebhookRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(em: EntityManager, row: Partial<WebhookSubscription>): Promise<WebhookSubscription> {
    const repository = em.getRepository(WebhookSubscription);
    return repository.save(repository.create(row));
  }

  find(tenantId: string, id: string, em: EntityManager = this.dataSource.manager): Promise<WebhookSubscription | null> {
    return em.getRepository(WebhookSubscription).findOne({ where: { tenantId, id } });
  }

  /** The row locked for a change, with its sealed secrets. */
  findForUpdate(em: EntityManager, tenantId: string, id: string): Promise<WebhookSubscription | null> {
    return em
      .getRepository(WebhookSubscription)
      .createQueryBuilder('s')
      .addSelect(['s.secretSealed', 's.previousSecretSealed'])
      .where('s.tenant_id = :tenantId AND s.id = :id', { tenantId, id })
      .setLock('pessimistic_write')
      .getOne();
  }

  async update(em: EntityManager, id: string, changes: Partial<WebhookSubscription>): Promise<void> {
    await em.getRepository(WebhookSubscription).update({ id }, changes);
  }

  /** The subscription and its delivery log. */
  async delete(em: EntityManager, tenantId: string, id: string): Promise<void> {
    await em.getRepository(WebhookDelivery).delete({ tenantId, subscriptionId: id });
    await em.getRepository(WebhookSubscription).delete({ tenantId, id });
  }

  /** Newest first, one keyset page (`take` rows). */
  list(tenantId: string, after: CursorPosition | undefined, take: number): Promise<WebhookSubscription[]> {
    const qb = this.dataSource
      .getRepository(WebhookSubscription)
      .createQueryBuilder('s')
      .where('s.tenant_id = :tenantId', { tenantId });
    if (after) qb.andWhere(keysetCondition('s.created_at', 's.id', '<'), { at: after.at, id: after.id });
    return qb.orderBy(keysetKey('s.created_at'), 'DESC').addOrderBy('s.id', 'DESC').take(take).getMany();
  }

  /** One subscription's deliveries, newest first (ids are time-ordered). */
  deliveries(tenantId: string, subscriptionId: string, afterId: string | undefined, take: number): Promise<WebhookDelivery[]> {
    const qb = this.dataSource
      .getRepository(WebhookDelivery)
      .createQueryBuilder('d')
      .where('d.subscription_id = :subscriptionId AND d.tenant_id = :tenantId', { subscriptionId, tenantId });
    if (afterId) qb.andWhere('d.id < :afterId', { afterId });
    return qb.orderBy('d.id', 'DESC').take(take).getMany();
  }

  findDelivery(em: EntityManager, tenantId: string, subscriptionId: string, id: string): Promise<WebhookDelivery | null> {
    return em.getRepository(WebhookDelivery).findOne({ where: { tenantId, subscriptionId, id } });
  }

  /**
   * Queues an event for one subscription (a test event, a redelivery) as a new delivery: it takes
   * its place in the subscription's order behind what is already waiting.
   */
  async queue(em: EntityManager, delivery: { tenantId: string; subscriptionId: string; eventId: string; eventType: string }): Promise<string> {
    const rows: Array<{ id: string }> = await em.query(
      `INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_type) VALUES ($1, $2, $3, $4) RETURNING id`,
      [delivery.tenantId, delivery.subscriptionId, delivery.eventId, delivery.eventType],
    );
    return rows[0]!.id;
  }
}
