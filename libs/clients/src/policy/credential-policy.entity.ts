import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';
import type { CredentialKind } from './credential-policy.rules.js';

/** A tenant's credential policy (DESIGN §12); no row: the defaults, nothing refused or flagged. */
@Entity({ name: 'credential_policies' })
@Check('credential_policies_secret_days_check', `"max_secret_lifetime_days" BETWEEN 1 AND 730`)
@Check('credential_policies_certificate_days_check', `"max_certificate_lifetime_days" BETWEEN 1 AND 3650`)
@Check('credential_policies_stale_days_check', `"stale_credential_days" BETWEEN 1 AND 3650`)
@Check('credential_policies_kinds_check', `"allowed_credential_kinds" <@ ARRAY['secret', 'certificate', 'federated']::text[] AND cardinality("allowed_credential_kinds") > 0`)
export class CredentialPolicyRow {
  @PrimaryColumn({ type: 'uuid' })
  tenantId: string;

  @OneToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'integer' })
  maxSecretLifetimeDays: number;

  @Column({ type: 'integer', nullable: true })
  maxCertificateLifetimeDays: number | null;

  @Column({ type: 'text', array: true })
  allowedCredentialKinds: CredentialKind[];

  @Column({ type: 'timestamptz' })
  effectiveFrom: Date;

  @Column({ type: 'integer', default: 90 })
  staleCredentialDays: number;

  @Column({ type: 'boolean', default: false })
  disableStaleCredentials: boolean;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
