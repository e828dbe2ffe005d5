import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ApiClient } from '@gatehouse/clients';
import { Tenant } from '@gatehouse/tenants';

/**
 * The `jti` of every client assertion accepted, until the assertion could no longer be accepted
 * anyway (its `exp` plus the clock skew allowed): a second use on any replica finds it here.
 * Expired rows are purged by the worker.
 */
@Entity({ name: 'used_client_assertions' })
@Index('used_client_assertions_expiry_idx', ['expiresAt'])
export class UsedClientAssertion {
  @PrimaryColumn({ type: 'uuid' })
  apiClientId: string;

  @PrimaryColumn({ type: 'text' })
  jti: string;

  @ManyToOne(() => ApiClient, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_client_id' })
  apiClient?: Relation<ApiClient>;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
