import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

interface Claim {
  tenantId: string;
  apiClientId: string;
  jti: string;
  expiresAt: number;
  resolve: (first: boolean) => void;
  reject: (error: unknown) => void;
}

/** jtis remembered per replica at most; the database is what makes a jti single-use everywhere. */
const MAX_REMEMBERED = 200_000;
/** Inserts in flight at once: while they run, further claims queue for the next one. */
const MAX_IN_FLIGHT = 2;

/**
 * Makes each client assertion's `jti` single-use on every replica until the assertion expires:
 * a jti this replica has seen is refused from memory; a new one is inserted into
 * `used_client_assertions` (ON CONFLICT DO NOTHING), and only the request whose insert won goes on.
 * Inserts are grouped: while a few are in flight the next claims queue and go in one statement, so
 * under load a round trip serves many requests, and a slow round trip does not idle the replica.
 */
@Injectable()
export class AssertionReplayGuard {
  private readonly seen = new Map<string, number>();
  private queue: Claim[] = [];
  private inFlight = 0;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** True when this is the jti's first use (anywhere); false for a replay. */
  claim(tenantId: string, apiClientId: string, jti: string, expiresAt: number): Promise<boolean> {
    const key = `${apiClientId}|${jti}`;
    const known = this.seen.get(key);
    if (known !== undefined && known > Date.now()) return Promise.resolve(false);
    this.remember(key, expiresAt);
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ tenantId, apiClientId, jti, expiresAt, resolve, reject });
      if (this.inFlight < MAX_IN_FLIGHT) this.flush();
    });
  }

  /** Deletes rows of assertions that expired; for a scheduled sweep. */
  async purgeExpired(): Promise<number> {
    const rows: Array<{ purged: number }> = await this.dataSource.query(
      `WITH purged AS (DELETE FROM used_client_assertions WHERE expires_at < now() RETURNING 1)
       SELECT count(*)::int AS purged FROM purged`,
    );
    return rows[0]?.purged ?? 0;
  }

  private flush(): void {
    this.inFlight++;
    const batch = this.queue;
    this.queue = [];
    this.insert(batch).then(
      (won) => {
        for (const claim of batch) claim.resolve(won.has(`${claim.apiClientId}|${claim.jti}`));
      },
      (error: unknown) => {
        // Not recorded: a retry once the database is back must not look like a replay.
        for (const claim of batch) {
          this.seen.delete(`${claim.apiClientId}|${claim.jti}`);
          claim.reject(error);
        }
      },
    ).finally(() => {
      this.inFlight--;
      if (this.queue.length > 0 && this.inFlight < MAX_IN_FLIGHT) this.flush();
    });
  }

  private async insert(batch: Claim[]): Promise<Set<string>> {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    const { rows } = await pool.query<{ api_client_id: string; jti: string }>({
      name: 'gatehouse-spend-jtis',
      text: `INSERT INTO used_client_assertions (tenant_id, api_client_id, jti, expires_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[])
       ON CONFLICT (api_client_id, jti) DO NOTHING
       RETURNING api_client_id, jti`,
      values: [
        batch.map((c) => c.tenantId),
        batch.map((c) => c.apiClientId),
        batch.map((c) => c.jti),
        batch.map((c) => new Date(c.expiresAt)),
      ],
    });
    return new Set(rows.map((row) => `${row.api_client_id}|${row.jti}`));
  }

  private remember(key: string, expiresAt: number): void {
    if (this.seen.size >= MAX_REMEMBERED) {
      // Oldest first (insertion order): drop the first tenth; the database still refuses them.
      let drop = MAX_REMEMBERED / 10;
      for (const old of this.seen.keys()) {
        this.seen.delete(old);
        if (--drop === 0) break;
      }
    }
    this.seen.set(key, expiresAt);
  }
}
