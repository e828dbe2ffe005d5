import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { User } from './user.entity.js';

export type LoginCandidate = Pick<
  User,
  | 'id'
  | 'tenantId'
  | 'username'
  | 'displayName'
  | 'email'
  | 'status'
  | 'mustChangePassword'
  | 'failedLoginCount'
  | 'lockedUntil'
> & { passwordHash: string | null };

/** Queries behind Web UI logins: the candidate with its hash, failure counting, password change. */
@Injectable()
export class LoginRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findByUsername(tenantId: string, username: string): Promise<LoginCandidate | null> {
    return this.query()
      .where('u.tenant_id = :tenantId AND u.username_normalized = :username', {
        tenantId,
        username: username.toLowerCase(),
      })
      .getOne();
  }

  findById(tenantId: string, id: string): Promise<LoginCandidate | null> {
    return this.query().where('u.tenant_id = :tenantId AND u.id = :id', { tenantId, id }).getOne();
  }

  /**
   * Counts one more consecutive failure (not while locked: waiting out a lock is free) in one
   * atomic statement, so parallel attempts each count exactly once; then sets the lock the policy
   * gives for the new count.
   */
  async recordFailure(userId: string, lockSeconds: (failures: number) => number): Promise<void> {
    const rows: Array<{ failed_login_count: number }> = await this.dataSource.query(
      `WITH c AS (UPDATE users SET failed_login_count = failed_login_count + 1
                   WHERE id = $1 AND (locked_until IS NULL OR locked_until <= now())
                   RETURNING failed_login_count)
       SELECT * FROM c`,
      [userId],
    );
    const seconds = rows[0] ? lockSeconds(rows[0].failed_login_count) : 0;
    if (seconds > 0) {
      await this.dataSource.query(
        `WITH c AS (UPDATE users SET locked_until = now() + make_interval(secs => $2) WHERE id = $1 RETURNING id) SELECT * FROM c`,
        [userId, seconds],
      );
    }
  }

  async recordSuccess(userId: string): Promise<void> {
    await this.dataSource.query(
      `WITH c AS (UPDATE users SET failed_login_count = 0, locked_until = NULL WHERE id = $1 AND failed_login_count > 0 RETURNING id) SELECT * FROM c`,
      [userId],
    );
  }

  /** The end of the source's block, if it is blocked now. */
  async sourceBlockedUntil(tenantId: string, source: string): Promise<Date | null> {
    const rows: Array<{ blocked_until: Date }> = await this.dataSource.query(
      `SELECT blocked_until FROM login_source_throttles
        WHERE tenant_id = $1 AND source = $2 AND blocked_until > now()`,
      [tenantId, source],
    );
    return rows[0] ? new Date(rows[0].blocked_until) : null;
  }

  /**
   * Counts one failed login from `source` in ONE atomic upsert (parallel attempts on any number of
   * replicas each count once). The `limit`-th failure of a window blocks the source until the
   * window ends; a new window starts with the first failure after it.
   */
  async recordSourceFailure(
    tenantId: string,
    source: string,
    windowSeconds: number,
    limit: number,
  ): Promise<{ failures: number; blockedUntil: Date | null }> {
    const rows: Array<{ failures: number; blocked_until: Date | null }> = await this.dataSource.query(
      `INSERT INTO login_source_throttles AS t (tenant_id, source, failures, window_started_at, blocked_until)
       VALUES ($1, $2, 1, now(), CASE WHEN $4::int <= 1 THEN now() + make_interval(secs => $3) END)
       ON CONFLICT (tenant_id, source) DO UPDATE SET
         failures = CASE WHEN t.window_started_at <= now() - make_interval(secs => $3) THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => $3)
                                  THEN now() ELSE t.window_started_at END,
         blocked_until = CASE WHEN t.window_started_at > now() - make_interval(secs => $3) AND t.failures + 1 >= $4
                              THEN t.window_started_at + make_interval(secs => $3) END
       RETURNING failures, blocked_until`,
      [tenantId, source, windowSeconds, limit],
    );
    const row = rows[0]!;
    return { failures: row.failures, blockedUntil: row.blocked_until ? new Date(row.blocked_until) : null };
  }

  /** Drops source counters whose window and block are over. */
  async purgeStaleSourceThrottles(windowSeconds: number): Promise<number> {
    const rows: Array<{ purged: number }> = await this.dataSource.query(
      `WITH purged AS (
         DELETE FROM login_source_throttles
          WHERE window_started_at < now() - make_interval(secs => $1)
            AND (blocked_until IS NULL OR blocked_until < now())
         RETURNING 1)
       SELECT count(*)::int AS purged FROM purged`,
      [windowSeconds],
    );
    return rows[0]?.purged ?? 0;
  }

  async changePassword(
    userId: string,
    passwordHash: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await em.query(
      `WITH c AS (UPDATE users SET password_hash = $2, must_change_password = false, password_changed_at = now(),
              failed_login_count = 0, locked_until = NULL, updated_at = now()
        WHERE id = $1 RETURNING id) SELECT * FROM c`,
      [userId, passwordHash],
    );
  }

  private query() {
    return this.dataSource.getRepository(User).createQueryBuilder('u').addSelect('u.passwordHash');
  }
}
