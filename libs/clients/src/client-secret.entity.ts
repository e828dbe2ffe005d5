import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';
import { ApiClient } from './api-client.entity.js';

/** A client secret. Only its keyed hash is stored; the value is shown once, at creation. */
@Entity({ name: 'client_secrets' })
@Index('client_secrets_key_id_key', ['keyId'], { unique: true })
@Index('client_secrets_client_idx', ['apiClientId'])
@Index('client_secrets_expiry_idx', ['expiresAt'], { where: '"revoked_at" IS NULL' })
/** The credential report's order: (tenant, created to the millisecond, id), written in the migration. */
@Index('client_secrets_report_idx', { synchronize: false })
@Index('client_secrets_hash_idx', ['secretHash'], { where: '"revoked_at" IS NULL' })
export class ClientSecret {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'uuid' })
  apiClientId: string;

  @ManyToOne(() => ApiClient, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_client_id' })
  apiClient?: Relation<ApiClient>;

  @Column({ type: 'uuid' })
  keyId: string;

  /** The first three characters of the secret (after the `gte_` prefix), to tell secrets apart. */
  @Column({ type: 'text' })
  hint: string;

  @Column({ type: 'text', default: '' })
  displayName: string;

  /** HMAC-SHA256(SECRET_PEPPER, secret). */
  @Column({ type: 'bytea', select: false })
  secretHash: Buffer;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  expiryWarnedAt: Date | null;

  /** When a token was last issued with it, to the minute (counted by the identity replicas, written at most a minute late). */
  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  /** The source address of that last use (as `TRUST_PROXY` makes it). */
  @Column({ type: 'text', nullable: true })
  lastUsedFrom: string | null;

  /** When the worker reported it unused for the tenant's stale period (once; a new use clears it). */
  @Column({ type: 'timestamptz', nullable: true })
  staleReportedAt: Date | null;

  /** When the worker disabled it as stale (the tenant's `disableStaleCredentials`); null: enabled. Reversible. */
  @Column({ type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  /** When it was last enabled again after being disabled: its stale period counts afresh from then. */
  @Column({ type: 'timestamptz', nullable: true })
  enabledAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
