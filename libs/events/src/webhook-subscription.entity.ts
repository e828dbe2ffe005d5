import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** `active`: delivering; `failing`: a delivery was given up after 3 days (still delivering the next ones); `disabled`: stopped (410 Gone, or by hand). */
export type WebhookState = 'active' | 'failing' | 'disabled';
export const WEBHOOK_STATES: readonly WebhookState[] = ['active', 'failing', 'disabled'];

/**
 * A tenant's webhook endpoint: where matching audit events are sent, signed (Standard Webhooks).
 * The signing secret must be read back to compute each HMAC, so it is stored encrypted with
 * `KEY_ENCRYPTION_KEY` (as signing keys and TOTP seeds are), never hashed.
 */
@Entity({ name: 'webhook_subscriptions' })
@Index('webhook_subscriptions_tenant_idx', ['tenantId', 'createdAt'])
@Check('webhook_subscriptions_state_check', `"state" IN ('active', 'failing', 'disabled')`)
export class WebhookSubscription {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'text' })
  url: string;

  /** Filter entries: exact event names, `prefix.*`, or `*`. */
  @Column({ type: 'text', array: true })
  events: string[];

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', default: 'active' })
  state: WebhookState;

  /** Why it is failing or disabled, in words. */
  @Column({ type: 'text', nullable: true })
  stateReason: string | null;

  /** AES-256-GCM of the `whsec_…` secret, bound to the row's id. */
  @Column({ type: 'bytea', select: false })
  secretSealed: Buffer;

  /** The secret before the last rotation: deliveries are signed with it too until `previousSecretUntil`. */
  @Column({ type: 'bytea', nullable: true, select: false })
  previousSecretSealed: Buffer | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousSecretUntil: Date | null;

  /** A worker's claim while it sends this subscription's deliveries (one in flight per subscription). */
  @Column({ type: 'timestamptz', nullable: true })
  claimedUntil: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
