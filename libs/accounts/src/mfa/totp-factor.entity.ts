import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';
import { User } from '../user.entity.js';

/**
 * A person's TOTP authenticator (RFC 6238: SHA-1, 6 digits, 30 s). The seed is sealed with
 * KEY_ENCRYPTION_KEY like a private signing key, bound to the user by the associated data. Pending
 * (`confirmed_at` null) until the first code from the app proves it was scanned.
 */
@Entity({ name: 'totp_factors' })
@Index('totp_factors_user_key', ['userId'], { unique: true })
export class TotpFactor {
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

  /** AES-256-GCM (iv ‖ tag ‖ ciphertext) of the 20-byte seed. */
  @Column({ type: 'bytea', select: false })
  sealedSecret: Buffer;

  /** The time step of the last code accepted: a code is accepted once, and never an older one. */
  @Column({ type: 'integer', nullable: true })
  lastUsedStep: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
