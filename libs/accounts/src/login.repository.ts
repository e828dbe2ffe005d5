import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type FailureCount, FailureWindows } from '@gatehouse/database';
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
  | 'failedSecondFactorCount'
  | 'secondFactorLockedUntil'
  | 'roles'
> & { passwordHash: string | null };

const SOURCE_THROTTLES = new FailureWindows('login_source_throttles', 'source');

/** The count and the lock of one kind of failure (column names, never input). */
interface FailureColumns {
  count: string;
  lock: string;
}
const PASSWORD_FAILURES: FailureColumns = { count: 'failed_login_count', lock: 'locked_until' };
/** Counted apart (SECURITY 58): a password change or reset clears the password's count only. */
const SECOND_FACTOR_FAILURES: FailureColumns = { count: 'failed_second_factor_count', lock: 'second_factor_locked_until' };

/** The later of two locks, if either lies in the future. */
export function lockOf(...locks: Array<Date | null>): Date | null {
  const now = Date.now();
  const future = locks.filter((lock): lock is Date => lock !== null && lock.getTime() > now);
  return future.length ? new Date(Math.max(...future.map((lock) => lock.getTime()))) : null;
}

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
  recordFailure(userId: string, lockSeconds: (failures: number) => number): Promise<Date | null> {
    return this.countFailure(userId, PASSWORD_FAILURES, lockSeconds);
  }

  /** {@link recordFailure} for a wrong second factor: its own count and lock, which no password change clears. */
  recordSecondFactorFailure(userId: string, lockSeconds: (failures: number) => number): Promise<Date | null> {
    return this.countFailure(userId, SECOND_FACTOR_FAILURES, lockSeconds);
  }

  private async countFailure(userId: string, columns: FailureColumns, lockSeconds: (failures: number) => number): Promise<Date | null> {
    const { count, lock } = columns;
    const rows: Array<{ failures: number }> = await this.dataSource.query(
      `WITH c AS (UPDATE users SET ${count} = ${count} + 1
                   WHERE id = $1 AND (${lock} IS NULL OR ${lock} <= now())
                   RETURNING ${count} AS failures)
       SELECT * FROM c`,
      [userId],
    );
    const seconds = rows[0] ? lockSeconds(rows[0].failures) : 0;
    if (seconds <= 0) return null;
    const locked: Array<{ until: Date }> = await this.dataSource.query(
      `WITH c AS (UPDATE users SET ${lock} = now() + make_interval(secs => $2) WHERE id = $1 RETURNING ${lock} AS until)
       SELECT * FROM c`,
      [userId, seconds],
    );
    return locked[0] ? new Date(locked[0].until) : null;
  }

  /** The lock of a username that names no account, if it is locked now. */
  async nameLockedUntil(tenantId: string, username: string): Promise<Date | null> {
    const rows: Array<{ locked_until: Date }> = await this.dataSource.query(
      `SELECT locked_until FROM login_name_locks
        WHERE tenant_id = $1 AND username_normalized = $2 AND locked_until > now()`,
      [tenantId, username.toLowerCase()],
    );
    return rows[0] ? new Date(rows[0].locked_until) : null;
  }

  /** {@link recordFailure} for a username that names no account: the same counting, the same locks. */
  async recordNameFailure(
    tenantId: string,
    username: string,
    lockSeconds: (failures: number) => number,
  ): Promise<Date | null> {
    const key = [tenantId, username.toLowerCase()];
    const rows: Array<{ failed_login_count: number }> = await this.dataSource.query(
      `INSERT INTO login_name_locks AS l (tenant_id, username_normalized, failed_login_count) VALUES ($1, $2, 1)
       ON CONFLICT (tenant_id, username_normalized) DO UPDATE SET failed_login_count = l.failed_login_count + 1
        WHERE l.locked_until IS NULL OR l.locked_until <= now()
       RETURNING failed_login_count`,
      key,
    );
    const seconds = rows[0] ? lockSeconds(rows[0].failed_login_count) : 0;
    if (seconds <= 0) return null;
    const locked: Array<{ locked_until: Date }> = await this.dataSource.query(
      `WITH c AS (UPDATE login_name_locks SET locked_until = now() + make_interval(secs => $3)
                   WHERE tenant_id = $1 AND username_normalized = $2 RETURNING locked_until)
       SELECT * FROM c`,
      [...key, seconds],
    );
    return locked[0] ? new Date(locked[0].locked_until) : null;
  }

  /** A right password: the time shown as the user's last sign-in. */
  async recordSignIn(userId: string): Promise<void> {
    await this.dataSource.query(`UPDATE users SET last_sign_in_at = now() WHERE id = $1`, [userId]);
  }

  /** A right second factor: both counts start again (it was checked only while neither lock held). */
  async recordSecondFactorSuccess(userId: string): Promise<void> {
    await this.dataSource.query(
      `WITH c AS (UPDATE users SET failed_login_count = 0, locked_until = NULL, failed_second_factor_count = 0, second_factor_locked_until = NULL
                   WHERE id = $1 AND (failed_login_count > 0 OR failed_second_factor_count > 0) RETURNING id) SELECT * FROM c`,
      [userId],
    );
  }

  async recordSuccess(userId: string): Promise<void> {
    await this.dataSource.query(
      `WITH c AS (UPDATE users SET failed_login_count = 0, locked_until = NULL WHERE id = $1 AND failed_login_count > 0 RETURNING id) SELECT * FROM c`,
      [userId],
    );
  }

  /** The end of the source's block, if it is blocked now. */
  sourceBlockedUntil(tenantId: string, source: string): Promise<Date | null> {
    return SOURCE_THROTTLES.blockedUntil(this.dataSource, tenantId, source);
  }

  /** Counts one failed login from `source` (see {@link FailureWindows.record}). */
  recordSourceFailure(tenantId: string, source: string, windowSeconds: number, limit: number): Promise<FailureCount> {
    return SOURCE_THROTTLES.record(this.dataSource, tenantId, source, windowSeconds, limit);
  }

  /** Drops source counters whose window and block are over. */
  purgeStaleSourceThrottles(windowSeconds: number): Promise<number> {
    return SOURCE_THROTTLES.purgeStale(this.dataSource, windowSeconds);
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
