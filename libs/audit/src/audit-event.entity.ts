import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';

export type ActorType = 'user' | 'client' | 'system';

/** Append-only: rows are inserted in the transaction of the change they record, never updated. */
@Entity({ name: 'audit_events' })
@Index('audit_events_tenant_time_idx', ['tenantId', 'occurredAt', 'id'])
// Newest-first pages, alone or filtered by action, target or actor (person or client): expression
// indexes on the keyset sort key, created by migration 1795447249095-KeysetListIndexes.
@Index('audit_events_keyset_idx', { synchronize: false })
@Index('audit_events_action_keyset_idx', { synchronize: false })
@Index('audit_events_target_keyset_idx', { synchronize: false })
@Index('audit_events_actor_keyset_idx', { synchronize: false })
@Index('audit_events_actor_client_keyset_idx', { synchronize: false })
export class AuditEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @CreateDateColumn({ type: 'timestamptz' })
  occurredAt: Date;

  @Column({ type: 'text' })
  actorType: ActorType;

  /** The person (user id) behind the change, or the client id when no person owns the client. */
  @Column({ type: 'text', nullable: true })
  actorId: string | null;

  /** The client the actor used, when the change came through the admin API. */
  @Column({ type: 'text', nullable: true })
  actorClientId: string | null;

  @Column({ type: 'text' })
  action: string;

  @Column({ type: 'text' })
  targetType: string;

  @Column({ type: 'text', nullable: true })
  targetId: string | null;

  /** What changed, with every secret redacted. */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  details: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  requestId: string | null;
}
