import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { Organisation } from '@gatehouse/organisations';
import { Tenant } from '@gatehouse/tenants';
import { Role } from './roles.js';

export type UserStatus = 'active' | 'disabled';

@Entity({ name: 'users' })
@Index('users_tenant_username_key', ['tenantId', 'usernameNormalized'], { unique: true })
@Index('users_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
/** The console's users list sorted by a column: keyset on (column, id), each an index range scan. */
@Index('users_tenant_display_name_idx', ['tenantId', 'displayName', 'id'])
@Index('users_tenant_username_idx', ['tenantId', 'username', 'id'])
@Index('users_tenant_email_idx', ['tenantId', 'email', 'id'])
@Index('users_tenant_locked_idx', ['tenantId', 'lockedUntil'], { where: '"locked_until" IS NOT NULL' })
@Index('users_tenant_staff_idx', ['tenantId'], { where: 'cardinality("roles") > 0' })
// The search box's prefix matches (expression indexes, written by hand in the migration).
@Index('users_tenant_order_idx', { synchronize: false })
@Index('users_search_username_idx', { synchronize: false })
@Index('users_search_email_idx', { synchronize: false })
@Index('users_search_display_name_idx', { synchronize: false })
@Index('users_organisation_idx', ['organisationId'], { where: '"organisation_id" IS NOT NULL' })
@Check('users_status_check', `"status" IN ('active', 'disabled')`)
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** The partner organisation the person belongs to (§12), if any. */
  @Column({ type: 'uuid', nullable: true })
  organisationId: string | null;

  @ManyToOne(() => Organisation, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'organisation_id' })
  organisation?: Relation<Organisation>;

  @Column({ type: 'text' })
  username: string;

  /** Lower-cased username: usernames are unique per tenant regardless of case. */
  @Column({ type: 'text' })
  usernameNormalized: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  displayName: string;

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  roles: Role[];

  @Column({ type: 'text', default: 'active' })
  status: UserStatus;

  @Column({ type: 'text', nullable: true, select: false })
  passwordHash: string | null;

  @Column({ type: 'boolean', default: false })
  mustChangePassword: boolean;

  @Column({ type: 'integer', default: 0 })
  failedLoginCount: number;

  @Column({ type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  /**
   * Wrong second factors in a row (codes, recovery codes, passkeys), counted apart from wrong
   * passwords: only a right second factor or an Administrator's unlock clears it, never a password
   * change or reset (SECURITY 58).
   */
  @Column({ type: 'integer', default: 0 })
  failedSecondFactorCount: number;

  /** The lock those failures set: while it lasts no second factor is checked. */
  @Column({ type: 'timestamptz', nullable: true })
  secondFactorLockedUntil: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  passwordChangedAt: Date | null;

  /** The last sign-in with the right password (Web UI or console). */
  @Column({ type: 'timestamptz', nullable: true })
  lastSignInAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
