import { Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { FailureWindowColumns } from '@gatehouse/database';
import { Tenant } from '@gatehouse/tenants';

/** Public access requests per source address within a window (the form's per-source throttle). */
@Entity({ name: 'access_request_throttles' })
export class AccessRequestThrottle extends FailureWindowColumns {
  @PrimaryColumn({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @PrimaryColumn({ type: 'text' })
  source: string;
}
