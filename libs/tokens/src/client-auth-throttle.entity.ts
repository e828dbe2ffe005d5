import { Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { FailureWindowColumns } from '@gatehouse/database';
import { Tenant } from '@gatehouse/tenants';

/**
 * Failed client authentications per client id within a window, counted with one atomic upsert so
 * that parallel attempts on several replicas are counted exactly.
 */
@Entity({ name: 'client_auth_throttles' })
export class ClientAuthThrottle extends FailureWindowColumns {
  @PrimaryColumn({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** The client id as presented (it may name no client). */
  @PrimaryColumn({ type: 'text' })
  clientId: string;
}
