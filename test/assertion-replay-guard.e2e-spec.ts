import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssertionReplayGuard } from '@gatehouse/tokens';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

/**
 * The jti store under load, as two replicas see it: each its own connection pool and its own
 * guard, claiming the same assertions at once, in batches several inserts deep.
 */
describe('assertion replay guard: each jti wins once across replicas', () => {
  let database: TestDatabase;
  const sources: DataSource[] = [];
  let guards: AssertionReplayGuard[];
  const tenantId = randomUUID();
  const clientId = randomUUID();
  const inFiveMinutes = () => Date.now() + 300_000;

  beforeAll(async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++) {
      const source = new DataSource({ type: 'postgres', url: database.url, extra: { max: 4 } });
      sources.push(await source.initialize());
    }
    guards = sources.map((source) => new AssertionReplayGuard(source));
  });

  afterAll(async () => {
    for (const source of sources) await source.destroy();
    await database?.drop();
  });

  it('2,000 assertions claimed twice on each of two replicas at once: one success each, and a row each', async () => {
    const jtis = Array.from({ length: 2_000 }, () => randomUUID());
    const claims = jtis.flatMap((jti) =>
      [0, 1, 0, 1].map((replica) =>
        guards[replica]!.claim(tenantId, clientId, jti, inFiveMinutes()).then((first) => ({ jti, first })),
      ),
    );
    const results = await Promise.all(claims);
    const wins = new Map<string, number>();
    for (const { jti, first } of results) if (first) wins.set(jti, (wins.get(jti) ?? 0) + 1);
    expect(wins.size).toBe(jtis.length);
    expect([...wins.values()].every((count) => count === 1)).toBe(true);
    const [{ rows }] = await sources[0]!.query(
      `SELECT count(*)::int AS rows FROM used_client_assertions WHERE api_client_id = $1`,
      [clientId],
    );
    expect(rows).toBe(jtis.length);
  });

  it('the same jti for another client is another assertion; a replay later is refused from memory or the database', async () => {
    const jti = randomUUID();
    const other = randomUUID();
    expect(await guards[0]!.claim(tenantId, clientId, jti, inFiveMinutes())).toBe(true);
    expect(await guards[1]!.claim(tenantId, other, jti, inFiveMinutes())).toBe(true);
    expect(await guards[0]!.claim(tenantId, other, jti, inFiveMinutes())).toBe(false);
    expect(await guards[1]!.claim(tenantId, clientId, jti, inFiveMinutes())).toBe(false);
  });

  it('the purge removes what expired and keeps what may still be replayed', async () => {
    const expired = randomUUID();
    const live = randomUUID();
    expect(await guards[0]!.claim(tenantId, clientId, expired, Date.now() - 1_000)).toBe(true);
    expect(await guards[0]!.claim(tenantId, clientId, live, inFiveMinutes())).toBe(true);
    expect(await guards[1]!.purgeExpired()).toBe(1);
    const left: Array<{ jti: string }> = await sources[0]!.query(
      `SELECT jti FROM used_client_assertions WHERE jti = ANY($1::text[])`,
      [[expired, live]],
    );
    expect(left.map((row) => row.jti)).toEqual([live]);
  });

  it('a claim the database could not record is not remembered: it fails, and the retry is not a replay', async () => {
    const failing = new DataSource({ type: 'postgres', url: database.url, extra: { max: 1 } });
    await failing.initialize();
    const guard = new AssertionReplayGuard(failing);
    const jti = randomUUID();
    await failing.query(`ALTER TABLE used_client_assertions RENAME TO used_client_assertions_away`);
    try {
      await expect(guard.claim(tenantId, clientId, jti, inFiveMinutes())).rejects.toThrow();
    } finally {
      await failing.query(`ALTER TABLE used_client_assertions_away RENAME TO used_client_assertions`);
    }
    expect(await guard.claim(tenantId, clientId, jti, inFiveMinutes())).toBe(true);
    await failing.destroy();
  });
});
