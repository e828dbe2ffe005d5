import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';

/**
 * A "Forgot your password?" request waiting for the worker. The public form only ever writes one of
 * these (whether or not the username or address is known), so its answer and its work are the same
 * either way; the worker looks the account up, mails the link and deletes the row.
 */
@Entity({ name: 'password_reset_requests' })
@Index('password_reset_requests_due_idx', ['requestedAt'])
export class PasswordResetRequest {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** What the person typed: a username or an email address (trimmed, at most 254 characters). */
  @Column({ type: 'text' })
  identifier: string;

  /** The client address the form came from (`X-Forwarded-For` only from `TRUST_PROXY`). */
  @Column({ type: 'text', nullable: true })
  source: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  requestedAt: Date;
}
