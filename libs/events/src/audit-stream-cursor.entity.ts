import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * How far one audit streaming sink (`syslog`, `hec`) has read the audit log: the position
 * (writing transaction, event id) of the last event it sent. One row per sink for the whole
 * installation; a worker claims it while it sends, so events go out once, in order.
 */
@Entity({ name: 'audit_stream_cursors' })
export class AuditStreamCursor {
  @PrimaryColumn({ type: 'text' })
  sink: string;

  @Column({ type: 'bigint' })
  transactionId: string;

  @Column({ type: 'uuid' })
  eventId: string;

  @Column({ type: 'timestamptz', nullable: true })
  claimedUntil: Date | null;

  @Column({ type: 'bigint', default: 0 })
  sent: string;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
