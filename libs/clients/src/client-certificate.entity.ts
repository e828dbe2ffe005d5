import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';
import { ApiClient } from './api-client.entity.js';

/**
 * A certificate credential (Entra's "certificate credentials"): the client proves itself with a JWT
 * signed by the certificate's private key (RFC 7523 private_key_jwt). Only the public certificate
 * is stored; the private key never leaves the client.
 */
@Entity({ name: 'client_certificates' })
@Index('client_certificates_key_id_key', ['keyId'], { unique: true })
@Index('client_certificates_client_thumbprint_key', ['apiClientId', 'x5tS256'], { unique: true })
/** The credential report's order: (tenant, created to the millisecond, id), written in the migration. */
@Index('client_certificates_report_idx', { synchronize: false })
@Index('client_certificates_expiry_idx', ['notAfter'])
export class ClientCertificate {
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

  @Column({ type: 'text', default: '' })
  displayName: string;

  /** SHA-1 of the DER, upper-case hex, as Entra shows it. */
  @Column({ type: 'text' })
  thumbprint: string;

  /** base64url SHA-1 of the DER (the JOSE `x5t` header). */
  @Column({ type: 'text' })
  x5t: string;

  /** base64url SHA-256 of the DER (the JOSE `x5t#S256` header). */
  @Column({ type: 'text' })
  x5tS256: string;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'timestamptz' })
  notBefore: Date;

  @Column({ type: 'timestamptz' })
  notAfter: Date;

  /** The X.509 certificate, DER. */
  @Column({ type: 'bytea' })
  certificateDer: Buffer;

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
