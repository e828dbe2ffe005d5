import { Check, Column, CreateDateColumn, Entity, Generated, Index, PrimaryColumn } from 'typeorm';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** The id of the transaction that writes a row (`xid8` as a number; a function of migration WebhooksAndAuditStreaming). */
export const TRANSACTION_ID = 'gatehouse_transaction_id()';

/**
 * One audit event on its way to one subscription: written by the audit table's trigger in the
 * transaction of the change (outbox), sent by the workers in (`transactionId`, `seq`) order, at
 * least once. The body is built from the audit event when sent, so nothing is copied here.
 */
@Entity({ name: 'webhook_deliveries' })
@Index('webhook_deliveries_pending_idx', ['subscriptionId', 'transactionId', 'seq'], { where: `"state" = 'pending'` })
@Index('webhook_deliveries_log_idx', ['subscriptionId', 'id'])
@Check('webhook_deliveries_state_check', `"state" IN ('pending', 'delivered', 'failed')`)
export class WebhookDelivery {
  @PrimaryColumn({ type: 'uuid', default: () => 'gatehouse_uuid_v7()' })
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  /**
   * No foreign key: each audit write would lock the subscription's row (KEY SHARE) to check it,
   * and concurrent writes would share that lock through multixacts. The trigger joins the live
   * subscriptions; deleting a subscription deletes its deliveries in the same transaction.
   */
  @Column({ type: 'uuid' })
  subscriptionId: string;

  /** The audit event sent: its id is the `webhook-id` header, the same on every attempt. */
  @Column({ type: 'uuid' })
  eventId: string;

  @Column({ type: 'text' })
  eventType: string;

  /** The writing transaction; a row is sent only once every older transaction has ended, so none overtakes it. */
  @Column({ type: 'bigint', default: () => TRANSACTION_ID })
  transactionId: string;

  /** Insertion order within a transaction. */
  @Column({ type: 'bigint' })
  @Generated('increment')
  seq: string;

  @Column({ type: 'text', default: 'pending' })
  state: DeliveryState;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  @Column({ type: 'integer', nullable: true })
  lastStatusCode: number | null;

  /** The failure in our words (timeout, refused, HTTP 500): never the endpoint's own answer. */
  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
