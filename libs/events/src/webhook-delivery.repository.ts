import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { AuditEvent } from '@gatehouse/audit';

/** Transactions below this id have all ended: their rows can no longer appear behind a later one. */
export const ENDED_BEFORE = `(pg_snapshot_xmin(pg_current_snapshot())::text)::bigint`;

export interface ClaimedSubscription {
  id: string;
  tenantId: string;
  url: string;
  state: string;
  secretSealed: Buffer;
  previousSecretSealed: Buffer | null;
  previousSecretUntil: Date | null;
}

export interface DueDelivery {
  id: string;
  eventId: string;
  eventType: string;
  attempts: number;
  createdAt: Date;
}

export interface AttemptResult {
  id: string;
  status: number | null;
  error: string | null;
}

/** The workers' side of webhook deliveries: claim a subscription, read its next events, record each attempt. */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims one subscription whose oldest pending delivery is due (SKIP LOCKED, then a lease
   * instead of a lock held while sending): no other worker sends its events until it is released
   * or the lease lapses, so one subscription has one attempt in flight, in order.
   */
  async claim(leaseMs: number): Promise<ClaimedSubscription | undefined> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `WITH claimed AS (UPDATE webhook_subscriptions s SET claimed_until = clock_timestamp() + make_interval(secs => $1)
        WHERE s.id = (
          SELECT c.id FROM webhook_subscriptions c
           CROSS JOIN LATERAL (SELECT d.transaction_id, d.next_attempt_at FROM webhook_deliveries d
                                WHERE d.subscription_id = c.id AND d.state = 'pending'
                                ORDER BY d.transaction_id, d.seq LIMIT 1) head
           WHERE c.state <> 'disabled' AND (c.claimed_until IS NULL OR c.claimed_until < clock_timestamp())
             AND head.next_attempt_at <= clock_timestamp() AND head.transaction_id < ${ENDED_BEFORE}
           ORDER BY head.next_attempt_at LIMIT 1
           FOR NO KEY UPDATE OF c SKIP LOCKED)
       RETURNING s.id, s.tenant_id, s.url, s.state, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_until)
       SELECT * FROM claimed`,
      [leaseMs / 1000],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: row.id as string,
      tenantId: row.tenant_id as string,
      url: row.url as string,
      state: row.state as string,
      secretSealed: row.secret_sealed as Buffer,
      previousSecretSealed: (row.previous_secret_sealed as Buffer | null) ?? null,
      previousSecretUntil: (row.previous_secret_until as Date | null) ?? null,
    };
  }

  /** The subscription's next pending deliveries in order, from transactions that have all ended. */
  async due(subscriptionId: string, limit: number): Promise<DueDelivery[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT id, event_id, event_type, attempts, created_at FROM webhook_deliveries
        WHERE subscription_id = $1 AND state = 'pending' AND transaction_id < ${ENDED_BEFORE}
        ORDER BY transaction_id, seq LIMIT $2`,
      [subscriptionId, limit],
    );
    return rows.map((row) => ({
      id: row.id as string,
      eventId: row.event_id as string,
      eventType: row.event_type as string,
      attempts: row.attempts as number,
      createdAt: row.created_at as Date,
    }));
  }

  events(tenantId: string, ids: string[]): Promise<AuditEvent[]> {
    return this.dataSource.getRepository(AuditEvent).findBy({ tenantId, id: In(ids) });
  }

  /** Marks attempts that the endpoint took (2xx), in one statement. */
  async delivered(results: AttemptResult[]): Promise<void> {
    if (!results.length) return;
    await this.dataSource.query(
      `UPDATE webhook_deliveries d SET state = 'delivered', attempts = d.attempts + 1, last_attempt_at = now(),
              delivered_at = now(), last_status_code = v.status, last_error = NULL
         FROM unnest($1::uuid[], $2::int[]) AS v(id, status) WHERE d.id = v.id`,
      [results.map((r) => r.id), results.map((r) => r.status)],
    );
  }

  /** A failed attempt: tried again after `delayMs`, or given up (`final`). */
  async failed(result: AttemptResult, delayMs: number, final: boolean, em: EntityManager = this.dataSource.manager): Promise<void> {
    await em.query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = now(), last_status_code = $2, last_error = $3,
              state = CASE WHEN $5 THEN 'failed' ELSE 'pending' END,
              next_attempt_at = now() + make_interval(secs => $4)
        WHERE id = $1`,
      [result.id, result.status, result.error, delayMs / 1000, final],
    );
  }

  /** Ends the claim; a subscription that was failing is active again once an attempt went through. */
  async release(subscriptionId: string, deliveredSome: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_subscriptions SET claimed_until = NULL,
              state = CASE WHEN $2 AND state = 'failing' THEN 'active' ELSE state END,
              state_reason = CASE WHEN $2 AND state = 'failing' THEN NULL ELSE state_reason END
        WHERE id = $1`,
      [subscriptionId, deliveredSome],
    );
  }

  /** Sets a subscription's state (failing or disabled); returns whether it changed. */
  async setState(em: EntityManager, subscriptionId: string, state: 'failing' | 'disabled', reason: string): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `WITH changed AS (UPDATE webhook_subscriptions SET state = $2, state_reason = $3, updated_at = now()
                         WHERE id = $1 AND state <> $2 AND state <> 'disabled' RETURNING id)
       SELECT id FROM changed`,
      [subscriptionId, state, reason],
    );
    return rows.length > 0;
  }

  /** The addresses of the tenant's active Administrators (told when a webhook fails or is disabled). */
  async administratorAddresses(em: EntityManager, tenantId: string): Promise<string[]> {
    const rows: Array<{ email: string }> = await em.query(
      `SELECT email FROM users WHERE tenant_id = $1 AND status = 'active' AND 'Administrator' = ANY(roles)`,
      [tenantId],
    );
    return rows.map((row) => row.email);
  }
}
