import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import type { CursorPosition } from '@gatehouse/database';
import { Email, type EmailStatus } from './email.entity.js';

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
   * expired because a worker died): they become `sending` with a lease, one more attempt counted.
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

  /** A failed attempt: retried after `backoffMs`, or abandoned once `maxAttempts` were made. */
  async markFailed(id: string, error: string, backoffMs: number, maxAttempts: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE emails
          SET status = CASE WHEN attempts >= $4 THEN 'abandoned' ELSE 'failed' END,
              last_error = $2, locked_until = NULL,
              next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
        WHERE id = $1 AND status = 'sending'`,
      [id, error.slice(0, 500), backoffMs, maxAttempts],
    );
  }

  /** Back to the queue with a fresh attempt budget; `null` unless it was failed or abandoned. */
  async requeue(em: EntityManager, tenantId: string, id: string): Promise<Email | null> {
    const rows: Array<{ id: string }> = await em.query(
      `WITH r AS (UPDATE emails SET status = 'queued', attempts = 0, next_attempt_at = now(), locked_until = NULL
                   WHERE tenant_id = $1 AND id = $2 AND status IN ('failed', 'abandoned') RETURNING id)
       SELECT id FROM r`,
      [tenantId, id],
    );
    return rows.length ? this.findById(tenantId, id, em) : null;
  }

  page(tenantId: string, query: { status?: EmailStatus; after?: CursorPosition; take: number }): Promise<Email[]> {
    const qb = this.dataSource.getRepository(Email).createQueryBuilder('e').where('e.tenant_id = :tenantId', { tenantId });
    if (query.status) qb.andWhere('e.status = :status', { status: query.status });
    if (query.after) {
      qb.andWhere(`(date_trunc('milliseconds', e.created_at), e.id) > (:at, :id)`, { at: query.after.at, id: query.after.id });
    }
    return qb.orderBy(`date_trunc('milliseconds', e.created_at)`).addOrderBy('e.id').take(query.take).getMany();
  }
}
