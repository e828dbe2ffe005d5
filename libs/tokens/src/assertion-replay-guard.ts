import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RoundTripBatcher, poolOf } from '@gatehouse/database';

interface Claim {
  tenantId: string;
  apiClientId: string;
  jti: string;
  expiresAt: number;
}

/** jtis remembered per replica at most; the database is what makes a jti single-use everywhere. */
const MAX_REMEMBERED = 200_000;
/** Inserts in flight at once (three was slower than two: smaller batches). */
const MAX_IN_FLIGHT = 2;

/**
 * Makes each client assertion's `jti` single-use on every replica until the assertion expires:
 * a jti this replica has seen is refused from memory; a new one is inserted into
 * `used_client_assertions` (ON CONFLICT DO NOTHING), and only the request whose insert won goes on.
 * Inserts are grouped ({@link RoundTripBatcher}): under load one statement records many claims.
 */
@Injectable()
export class AssertionReplayGuard {
  private readonly seen = new Map<string, number>();
  private readonly inserts = new RoundTripBatcher<Claim, boolean>((batch) => this.insert(batch), {
    maxInFlight: MAX_IN_FLIGHT,
    maxBatch: 1_000,
  });

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** True when this is the jti's first use (anywhere); false for a replay. */
  claim(tenantId: string, apiClientId: string, jti: string, expiresAt: number): Promise<boolean> {
    const key = `${apiClientId}|${jti}`;
    const known = this.seen.get(key);
    if (known !== undefined && known > Date.now()) return Promise.resolve(false);
    this.remember(key, expiresAt);
    return this.inserts.submit({ tenantId, apiClientId, jti, expiresAt }).catch((error: unknown) => {
      // Not recorded: a retry once the database is back must not look like a replay.
      this.seen.delete(key);
      throw error;
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

  /** Whether each claim's insert won, in order. */
  private async insert(batch: Claim[]): Promise<boolean[]> {
    const { rows } = await poolOf(this.dataSource).query<{ api_client_id: string; jti: string }>({
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
    const won = new Set(rows.map((row) => `${row.api_client_id}|${row.jti}`));
    return batch.map((claim) => won.has(`${claim.apiClientId}|${claim.jti}`));
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
