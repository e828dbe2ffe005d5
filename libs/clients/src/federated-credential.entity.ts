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
import { Tenant } from '@gatehouse/tenants';
import { ApiClient } from './api-client.entity.js';

/**
 * A federated credential (Entra's federated identity credential): the client proves itself with a
 * token that another issuer signed — a GitHub Actions job's, a Kubernetes service account's, another
 * tenant's — when that token's issuer, subject (or claims, by expression) and audience match. Nothing
 * secret is stored.
 */
@Entity({ name: 'client_federated_credentials' })
@Index('client_federated_credentials_client_name_key', ['apiClientId', 'name'], { unique: true })
/** The credential report's order: (tenant, created to the millisecond, id), written in the migration. */
@Index('client_federated_credentials_report_idx', { synchronize: false })
@Index('client_federated_credentials_tenant_issuer_idx', ['tenantId', 'issuer'])
@Check(
  'client_federated_credentials_one_matcher_check',
  `("subject" IS NULL) <> ("claims_expression" IS NULL) AND ("claims_expression" IS NULL) = ("claims_expression_version" IS NULL)`,
)
export class FederatedCredential {
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

  /** Unique per client, fixed once created (as Entra's). */
  @Column({ type: 'text' })
  name: string;

  /** The `iss` the external token must carry, compared exactly. */
  @Column({ type: 'text' })
  issuer: string;

  /** The `sub` the external token must carry, compared exactly; null when an expression decides. */
  @Column({ type: 'text', nullable: true })
  subject: string | null;

  /** Entra's flexible form (`claims['sub'] matches '…'`); null when `subject` decides. */
  @Column({ type: 'text', nullable: true })
  claimsExpression: string | null;

  @Column({ type: 'smallint', nullable: true })
  claimsExpressionVersion: number | null;

  /** One of them must be in the external token's `aud`. */
  @Column({ type: 'text', array: true })
  audiences: string[];

  @Column({ type: 'text', default: '' })
  description: string;

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

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
