import { Column, type DataSource, type EntityManager } from 'typeorm';

export interface FailureCount {
  failures: number;
  blockedUntil: Date | null;
}

/**
 * A table of failure counters per (tenant_id, key) within a window: columns `failures`,
 * `window_started_at`, `blocked_until`. Shared by the client-authentication and the login-source
 * throttles. Table and key column are constants of the caller, never input.
 */
export class FailureWindows {
  constructor(
    private readonly table: string,
    private readonly keyColumn: string,
  ) {}

  /**
   * Counts one failure in ONE atomic upsert, so parallel failures on any number of replicas are
   * counted exactly. The `limit`-th failure of a window blocks the key until the window ends; a
   * new window starts with the first failure after it.
   */
  async record(
    db: DataSource | EntityManager,
    tenantId: string,
    key: string,
    windowSeconds: number,
    limit: number,
  ): Promise<FailureCount> {
    const rows: Array<{ failures: number; blocked_until: Date | null }> = await db.query(
      `INSERT INTO ${this.table} AS t (tenant_id, ${this.keyColumn}, failures, window_started_at, blocked_until)
       VALUES ($1, $2, 1, now(), CASE WHEN $4::int <= 1 THEN now() + make_interval(secs => $3) END)
       ON CONFLICT (tenant_id, ${this.keyColumn}) DO UPDATE SET
         failures = CASE WHEN t.window_started_at <= now() - make_interval(secs => $3) THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => $3)
                                  THEN now() ELSE t.window_started_at END,
         blocked_until = CASE WHEN t.window_started_at > now() - make_interval(secs => $3) AND t.failures + 1 >= $4
                              THEN t.window_started_at + make_interval(secs => $3) END
       RETURNING failures, blocked_until`,
      [tenantId, key, windowSeconds, limit],
    );
    const row = rows[0]!;
    return { failures: row.failures, blockedUntil: row.blocked_until ? new Date(row.blocked_until) : null };
  }

  /** The end of the key's block, if it is blocked now. */
  async blockedUntil(db: DataSource | EntityManager, tenantId: string, key: string): Promise<Date | null> {
    const rows: Array<{ blocked_until: Date }> = await db.query(
      `SELECT blocked_until FROM ${this.table}
        WHERE tenant_id = $1 AND ${this.keyColumn} = $2 AND blocked_until > now()`,
      [tenantId, key],
    );
    return rows[0] ? new Date(rows[0].blocked_until) : null;
  }

  /** Drops counters whose window and block are over (keys that name nothing pile up otherwise). */
  async purgeStale(db: DataSource | EntityManager, windowSeconds: number): Promise<number> {
    const rows: Array<{ purged: number }> = await db.query(
      `WITH purged AS (
         DELETE FROM ${this.table}
          WHERE window_started_at < now() - make_interval(secs => $1)
            AND (blocked_until IS NULL OR blocked_until < now())
         RETURNING 1)
       SELECT count(*)::int AS purged FROM purged`,
      [windowSeconds],
    );
    return rows[0]?.purged ?? 0;
  }
}

/** The counter columns of a {@link FailureWindows} table; its entity adds tenant and key. */
export abstract class FailureWindowColumns {
  @Column({ type: 'integer', default: 0 })
  failures: number;

  @Column({ type: 'timestamptz' })
  windowStartedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  blockedUntil: Date | null;
}
