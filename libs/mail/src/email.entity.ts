import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';

export type EmailStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'abandoned';
export const EMAIL_STATUSES: EmailStatus[] = ['queued', 'sending', 'sent', 'failed', 'abandoned'];
/** The outbox list's order: as queued (`oldest` first, the API's default) or `newest` first. */
export type EmailOrder = 'oldest' | 'newest';
export const EMAIL_ORDERS: EmailOrder[] = ['oldest', 'newest'];

/**
 * The transactional outbox: a row is written in the transaction of the change that causes the
 * mail, and a worker delivers it. Bodies carry link tokens, so they are stored encrypted
 * (AES-256-GCM with KEY_ENCRYPTION_KEY, bound to the row id): a dump holds no usable link.
 */
@Entity({ name: 'emails' })
@Index('emails_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
/** (tenant, creation to the ms in UTC, id): the keyset position of the outbox list; an expression index, made by a migration. */
@Index('emails_tenant_position_idx', { synchronize: false })
@Index('emails_due_idx', ['nextAttemptAt'], { where: `"status" IN ('queued', 'failed')` })
@Index('emails_claimed_idx', ['lockedUntil'], { where: `"status" = 'sending'` })
@Index('emails_tenant_abandoned_idx', ['tenantId'], { where: `"status" = 'abandoned'` })
@Check('emails_status_check', `"status" IN ('queued', 'sending', 'sent', 'failed', 'abandoned')`)
export class Email {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'text' })
  toAddress: string;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'bytea', select: false })
  textBody: Buffer;

  @Column({ type: 'bytea', select: false })
  htmlBody: Buffer;

  @Column({ type: 'text' })
  template: string;

  @Column({ type: 'text', default: 'queued' })
  status: EmailStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  /** Set at the first failed attempt: transient failures are retried until then (MAIL_RETRY_HOURS). */
  @Column({ type: 'timestamptz', nullable: true })
  retryUntil: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  sentAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
