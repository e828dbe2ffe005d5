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
} from 'typeorm';
import { type SigningAlgorithm, Tenant } from '@gatehouse/tenants';

/**
 * `next` (published, signs after the next rollover) → `active` (signs) → `retired` (published until
 * its last token expires) — or `revoked` by an emergency rollover: out of the JWKS at once, so
 * every token it signed stops verifying. Retired and revoked rows are deleted once past `publishUntil`.
 */
export type SigningKeyStatus = 'next' | 'active' | 'retired' | 'revoked';

/** A tenant's token signing key. The private half is stored encrypted with KEY_ENCRYPTION_KEY. */
@Entity({ name: 'signing_keys' })
@Index('signing_keys_kid_key', ['kid'], { unique: true })
@Index('signing_keys_one_active_per_tenant', ['tenantId'], { unique: true, where: `"status" = 'active'` })
@Index('signing_keys_tenant_status_idx', ['tenantId', 'status'])
@Check('signing_keys_status_check', `"status" IN ('next', 'active', 'retired', 'revoked')`)
@Check('signing_keys_algorithm_check', `"algorithm" IN ('RS256', 'ES256')`)
export class SigningKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'text' })
  kid: string;

  @Column({ type: 'text' })
  algorithm: SigningAlgorithm;

  @Column({ type: 'text' })
  status: SigningKeyStatus;

  /** The public JWK as published in the JWKS. */
  @Column({ type: 'jsonb' })
  publicJwk: Record<string, unknown>;

  /** A self-signed X.509 certificate of the public key (DER), published as `x5c`, as Entra does. */
  @Column({ type: 'bytea', nullable: true })
  certificateDer: Buffer | null;

  /** AES-256-GCM(KEY_ENCRYPTION_KEY, PKCS#8 DER): iv ‖ tag ‖ ciphertext. */
  @Column({ type: 'bytea', select: false })
  privateKeyEncrypted: Buffer;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  activatedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  retiredAt: Date | null;

  /** A retired key is published until every token it signed has expired (a revoked one is listed until then). */
  @Column({ type: 'timestamptz', nullable: true })
  publishUntil: Date | null;
}
