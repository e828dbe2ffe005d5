import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';

/**
 * The lockout counter of a username that names no account. Sign-in says when a username is locked
 * and for how long; so that this never tells whether an account exists, a name without an account
 * counts and locks exactly like an account does (same policy, same "not while locked" rule, and,
 * like an account's counter, never forgotten: a purge would make it behave differently).
 */
@Entity({ name: 'login_name_locks' })
export class LoginNameLock {
  @PrimaryColumn({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** Lower-cased, as `users.username_normalized`. */
  @PrimaryColumn({ type: 'text' })
  usernameNormalized: string;

  @Column({ type: 'integer', default: 0 })
  failedLoginCount: number;

  @Column({ type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;
}
