import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import type { CursorPosition } from '@gatehouse/database';
import { type EmailOrder, Email, type EmailStatus } from './email.entity.js';

/** A claimed mail, bodies still sealed. */
export interface ClaimedEmail {
  id: string;
  tenantId: string;
  toAddress: string;
  subject: string;
  textBody: Buffer;
  htmlBody: Buffer;
  attempts: number;
}

@Injectable()
export class EmailRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(em: EntityManager, emails: Array<Partial<Email>>): Promise<void> {
    await em.getRepository(Email).insert(emails);
  }

  findById(tenantId: string, id: string, em?: EntityManager): Promise<Email | null> {
    if (!isUUID(id)) return Promise.resolve(null);
    return (em ?? this.dataSource.manager).getRepository(Email).findOneBy({ tenantId, id });
  }

  /**
   * Claims up to `limit` due mails (queued or failed past their backoff, or `sending` whose claim
   * lapsed because its worker died): they become `sending` with a short lease that the claiming
   * worker renews while it works, one more attempt counted.
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedEmail[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `WITH c AS (UPDATE emails SET status = 'sending', attempts = attempts + 1,
              locked_until = now() + make_interval(secs => $2::double precision / 1000)
        WHERE id IN (SELECT id FROM emails
                      WHERE (status IN ('queued', 'failed') AND next_attempt_at <= now())
                         OR (status = 'sending' AND locked_until < now())
                      ORDER BY next_attempt_at
                      LIMIT $1
                      FOR UPDATE SKIP LOCKED)
        RETURNING id, tenant_id, to_address, subject, text_body, html_body, attempts)
       SELECT * FROM c`,
      [limit, leaseMs],
    );
    return rows.map((r) => ({
      id: r.id as string,
      tenantId: r.tenant_id as string,
      toAddress: r.to_address as string,
      subject: r.subject as string,
      textBody: r.text_body as Buffer,
      htmlBody: r.html_body as Buffer,
      attempts: r.attempts as number,
    }));
  }

  async markSent(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE emails SET status = 'sent', sent_at = now(), locked_until = NULL, last_error = NULL WHERE id = $1 AND status = 'sending'`,
      [id],
    );
  }

  /**
   * Extends the claim on mails this worker still holds; answers the ids it still holds (a claim
   * that lapsed may have been taken over by another worker, which then sends that mail).
   */
  async renewLease(ids: string[], leaseMs: number): Promise<string[]> {
    if (!ids.length) return [];
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `WITH r AS (UPDATE emails SET locked_until = now() + make_interval(secs => $2::double precision / 1000)
                   WHERE id = ANY($1::uuid[]) AND status = 'sending' AND locked_until > now() RETURNING id)
       SELECT id FROM r`,
      [ids, leaseMs],
    );
    return rows.map((r) => r.id);
  }

  /**
   * A failed attempt. `rejected` (a permanent 5xx) is abandoned at once; any other failure is
   * retried after `backoffMs` until `retry_until`, set at the first failure to `retryForMs` later.
   * An abandoned mail keeps no future attempt time.
   */
  async markFailed(id: string, failure: { kind: string; message: string }, backoffMs: number, retryForMs: number): Promise<string> {
    const giveUpAt = `COALESCE(retry_until, now() + make_interval(secs => $5::double precision / 1000))`;
    const abandon = `($2 = 'rejected' OR ${giveUpAt} <= now())`;
    const rows: Array<{ status: string }> = await this.dataSource.query(
      `WITH f AS (UPDATE emails
          SET retry_until = ${giveUpAt},
              status = CASE WHEN ${abandon} THEN 'abandoned' ELSE 'failed' END,
              next_attempt_at = CASE WHEN ${abandon} THEN now()
                                     ELSE now() + make_interval(secs => $4::double precision / 1000) END,
              last_error = $3, locked_until = NULL
        WHERE id = $1 AND status = 'sending' RETURNING status)
       SELECT status FROM f`,
      [id, failure.kind, `${failure.kind}: ${failure.message}`.slice(0, 500), backoffMs, retryForMs],
    );
    return rows[0]?.status ?? 'lost';
  }

  /** True when a mail waits for a retry because SMTP could not be reached. */
  async hasUnreachableWaiting(): Promise<boolean> {
    const rows: Array<{ waiting: boolean }> = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM emails WHERE status = 'failed' AND next_attempt_at > now()
                        AND last_error LIKE 'unreachable:%') AS waiting`,
    );
    return rows[0]?.waiting ?? false;
  }

  /** SMTP answers again: every mail that waits only because it could not be reached is due now. */
  async wakeUnreachable(): Promise<number> {
    const rows: Array<{ n: number }> = await this.dataSource.query(
      `WITH w AS (UPDATE emails SET next_attempt_at = now()
                   WHERE status = 'failed' AND next_attempt_at > now() AND last_error LIKE 'unreachable:%' RETURNING 1)
       SELECT count(*)::int AS n FROM w`,
    );
    return rows[0]?.n ?? 0;
  }

  /** Mails not yet sent nor abandoned, and the age of the oldest (for /metrics). */
  async figures(): Promise<{ depth: number; oldestAgeSeconds: number }> {
    const rows: Array<{ depth: number; oldest: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS depth, COALESCE(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest
         FROM emails WHERE status IN ('queued', 'failed', 'sending')`,
    );
    return { depth: rows[0]?.depth ?? 0, oldestAgeSeconds: rows[0]?.oldest ?? 0 };
  }

  /** Back to the queue with a fresh attempt budget; `null` unless it was failed or abandoned. */
  async requeue(em: EntityManager, tenantId: string, id: string): Promise<Email | null> {
    const rows: Array<{ id: string }> = await em.query(
      `WITH r AS (UPDATE emails SET status = 'queued', attempts = 0, next_attempt_at = now(), locked_until = NULL,
                         retry_until = NULL
                   WHERE tenant_id = $1 AND id = $2 AND status IN ('failed', 'abandoned') RETURNING id)
       SELECT id FROM r`,
      [tenantId, id],
    );
    return rows.length ? this.findById(tenantId, id, em) : null;
  }

  /**
   * A keyset range of the outbox in list order (`oldest` or `newest` first): the rows following
   * `after`, or the rows preceding `before` nearest first.
   */
  page(
    tenantId: string,
    query: { status?: EmailStatus; order: EmailOrder; after?: CursorPosition; before?: CursorPosition; take: number },
  ): Promise<Email[]> {
    const qb = this.dataSource.getRepository(Email).createQueryBuilder('e').where('e.tenant_id = :tenantId', { tenantId });
    if (query.status) qb.andWhere('e.status = :status', { status: query.status });
    const forward = query.order === 'oldest' ? '>' : '<';
    const backward = query.order === 'oldest' ? '<' : '>';
    // Exactly the expression of `emails_tenant_position_idx`: each page is one index range scan.
    const at = `date_trunc('milliseconds', e.created_at AT TIME ZONE 'UTC')`;
    const cursor = `(CAST(:at AS timestamptz) AT TIME ZONE 'UTC')`;
    if (query.after) qb.andWhere(`(${at}, e.id) ${forward} (${cursor}, :id)`, { at: query.after.at, id: query.after.id });
    if (query.before) qb.andWhere(`(${at}, e.id) ${backward} (${cursor}, :id)`, { at: query.before.at, id: query.before.id });
    const ascending = (query.order === 'oldest') !== Boolean(query.before);
    const direction = ascending ? 'ASC' : 'DESC';
    return qb.orderBy(at, direction).addOrderBy('e.id', direction).take(query.take).getMany();
  }
}
