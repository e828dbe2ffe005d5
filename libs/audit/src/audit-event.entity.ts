import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type ActorType = 'user' | 'client' | 'system';

/** Append-only: rows are inserted in the transaction of the change they record, never updated. */
@Entity({ name: 'audit_events' })
/** (tenant, time to the ms in UTC, id): the keyset position of the log's pages; an expression index, made by a migration. */
@Index('audit_events_tenant_position_idx', { synchronize: false })
// The same position behind each filter (action, target, actor as a person or as a client), so a
// filtered page reads its own rows newest first: migration 1795450592018-KeysetListIndexes; the
// target and actor ones only over rows that have one (1795460000001-LeanerAuditWrites).
@Index('audit_events_action_keyset_idx', { synchronize: false })
@Index('audit_events_target_keyset_idx', { synchronize: false })
@Index('audit_events_actor_keyset_idx', { synchronize: false })
@Index('audit_events_actor_client_keyset_idx', { synchronize: false })
/** A BRIN index over `transaction_id` (migration WebhooksAndAuditStreaming): audit streaming reads the log's tail by it. */
@Index('audit_events_transaction_brin_idx', { synchronize: false })
export class AuditEvent {
  /** Time-ordered (UUID version 7, made by the database): new rows go to the primary key's right edge. */
  @PrimaryColumn({ type: 'uuid', default: () => 'gatehouse_uuid_v7()' })
  id: string;

  /** The tenant's id, without a foreign key: an event is written with the tenant its request resolved (migration 1795500000000). */
  @Column({ type: 'uuid' })
  tenantId: string;

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

  /**
   * Who acted, as they were named when they acted (a person's display name, or an ownerless
   * client's): a later rename relabels no past event. `null` for the system, and for events of
   * people or clients that no longer existed.
   */
  @Column({ type: 'text', nullable: true })
  actorName: string | null;

  /** The acting person's username at the time. */
  @Column({ type: 'text', nullable: true })
  actorUsername: string | null;

  @Column({ type: 'text' })
  action: string;

  @Column({ type: 'text' })
  targetType: string;

  @Column({ type: 'text', nullable: true })
  targetId: string | null;

  /** What the target was called when the event was written (a user's, client's or API's name…). */
  @Column({ type: 'text', nullable: true })
  targetName: string | null;

  /** What changed, with every secret redacted. */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  details: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  requestId: string | null;

  /** Where the request that made the change came from; `null` for the system and for older events. */
  @Column({ type: 'text', nullable: true })
  sourceAddress: string | null;

  /**
   * The writing transaction's id (`xid8`, set by the database): audit streaming reads the log in
   * (transaction, id) order, only past transactions that have all ended, so no event is skipped.
   * `null` on events written before streaming existed (no table rewrite when it was added).
   */
  @Column({ type: 'bigint', nullable: true, default: () => 'gatehouse_transaction_id()', select: false, insert: false, update: false })
  transactionId?: string;
}
