import { Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { FailureWindowColumns } from '@gatehouse/database';
import { Tenant } from '@gatehouse/tenants';

/**
 * Counters per source address of the public endpoints that authenticate machines: failed client
 * authentications at the token endpoint (`token:<address>`) and secret-leak reports
 * (`leak-report:<address>`). Counted with one atomic upsert, so replicas count exactly.
 */
@Entity({ name: 'source_throttles' })
export class SourceThrottle extends FailureWindowColumns {
  @PrimaryColumn({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** `<endpoint>:<address>` (the address as TRUST_PROXY makes it). */
  @PrimaryColumn({ type: 'text' })
  source: string;
}
