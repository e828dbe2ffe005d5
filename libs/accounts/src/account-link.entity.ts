import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';
import { User } from './user.entity.js';

/**
 * `activation` and `reset`: Web UI links (`/activate/{token}`, ≤ 24 h). `console_activation`: a
 * staff member's first console sign-in (`/console/activate/{token}`: password, then TOTP; 72 h).
 * `self_service_reset`: the link a person asked for on "Forgot your password?"
 * (`/password-reset/{token}`, 1 h).
 */
export type AccountLinkPurpose = 'activation' | 'reset' | 'console_activation' | 'self_service_reset';

/** A single-use link that lets a user set their password. */
@Entity({ name: 'account_links' })
@Index('account_links_token_hash_key', ['tokenHash'], { unique: true })
@Index('account_links_user_idx', ['userId'])
@Check('account_links_purposes_check', `"purpose" IN ('activation', 'reset', 'console_activation', 'self_service_reset')`)
export class AccountLink {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'text' })
  purpose: AccountLinkPurpose;

  /** HMAC-SHA256(SECRET_PEPPER, token). */
  @Column({ type: 'bytea', select: false })
  tokenHash: Buffer;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** Set when used, or when a newer link or a reset replaced it. */
  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
