import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditEvent } from '@gatehouse/audit';
import { ENDED_BEFORE } from '../webhook-delivery.repository.js';

export interface StreamPosition {
  transactionId: string;
  eventId: string;
}

const START = '00000000-0000-0000-0000-000000000000';

/** A sink's cursor over the audit log, read in (writing transaction, id) order. */
@Injectable()
export class AuditStreamRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A sink seen for the first time starts with the transactions still running: later events, not history. */
  async ensureCursor(sink: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO audit_stream_cursors (sink, transaction_id, event_id) VALUES ($1, ${ENDED_BEFORE}, $2) ON CONFLICT (sink) DO NOTHING`,
      [sink, START],
    );
  }

  /** The cursor, claimed for `leaseMs` (another worker's claim that lapsed is taken over), or nothing. */
  async claim(sink: string, leaseMs: number): Promise<StreamPosition | undefined> {
    const rows: Array<{ transaction_id: string; event_id: string }> = await this.dataSource.query(
      `WITH claimed AS (UPDATE audit_stream_cursors SET claimed_until = clock_timestamp() + make_interval(secs => $2)
                         WHERE sink = $1 AND (claimed_until IS NULL OR claimed_until < clock_timestamp())
                         RETURNING transaction_id, event_id)
       SELECT transaction_id, event_id FROM claimed`,
      [sink, leaseMs / 1000],
    );
    return rows[0] ? { transactionId: rows[0].transaction_id, eventId: rows[0].event_id } : undefined;
  }

  /** The next events after `position`, from transactions that have all ended (so none can appear behind them later). */
  after(position: StreamPosition, limit: number): Promise<AuditEvent[]> {
    return this.dataSource
      .getRepository(AuditEvent)
      .createQueryBuilder('e')
      .addSelect('e.transactionId')
      .where('e.transaction_id >= :tx AND (e.transaction_id, e.id) > (:tx, :id)', { tx: position.transactionId, id: position.eventId })
      .andWhere(`e.transaction_id < ${ENDED_BEFORE}`)
      .orderBy('e.transaction_id', 'ASC')
      .addOrderBy('e.id', 'ASC')
      .take(limit)
      .getMany();
  }

  async advance(sink: string, position: StreamPosition, count: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE audit_stream_cursors SET transaction_id = $2, event_id = $3, sent = sent + $4, updated_at = now() WHERE sink = $1`,
      [sink, position.transactionId, position.eventId, count],
    );
  }

  async release(sink: string): Promise<void> {
    await this.dataSource.query(`UPDATE audit_stream_cursors SET claimed_until = NULL WHERE sink = $1`, [sink]);
  }

  /** Per sink, the age in seconds of the oldest event not sent yet (0: caught up). */
  async lags(sinks: readonly string[]): Promise<Map<string, number>> {
    const rows: Array<{ sink: string; lag: number }> = await this.dataSource.query(
      `SELECT c.sink, COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - (
                SELECT e.occurred_at FROM audit_events e
                 WHERE e.transaction_id >= c.transaction_id AND (e.transaction_id, e.id) > (c.transaction_id, c.event_id)
                 ORDER BY e.transaction_id, e.id LIMIT 1)), 0)::float8 AS lag
         FROM audit_stream_cursors c WHERE c.sink = ANY($1)`,
      [sinks],
    );
    return new Map(rows.map((row) => [row.sink, Number(row.lag)]));
  }
}
