import { Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { FailureWindowColumns } from '@gatehouse/database';
import { Tenant } from '@gatehouse/tenants';

/**
 * Failed Web UI logins per source address within a window, whatever accounts they tried (password
 * spraying spreads its attempts so that no one account locks). Counted with one atomic upsert, so
 * parallel attempts on several replicas are counted exactly.
 */
@Entity({ name: 'login_source_throttles' })
export class LoginSourceThrottle extends FailureWindowColumns {
  @PrimaryColumn({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** The client address as the app sees it (`X-Forwarded-For` only from `TRUST_PROXY`). */
  @PrimaryColumn({ type: 'text' })
  source: string;
}
