import { beforeAll, describe, expect, it } from 'vitest';
import { MetricsRegistry } from '@gatehouse/http';
import { AuthFailureTracker, SOURCE_FAILURE_LIMIT } from '@gatehouse/tokens';
import { pause } from './support/token-fixtures.js';
import { TokenRotationEnv } from './support/token-rotation-env.js';

/** Failed client authentications: counted per address exactly, audited and mailed once per window, swept, timed alike. */
describe('token endpoint: throttling of failed client authentication', () => {
  const env = new TokenRotationEnv();
  const { token, codeOf, logs, secrets } = env;
  let app: TokenRotationEnv['app'];
  let fx: TokenRotationEnv['fx'];
  let tenant: TokenRotationEnv['tenant'];
  let orders: TokenRotationEnv['orders'];
  beforeAll(() => void ({ app, fx, tenant, orders } = env));

  it('200 parallel wrong-secret requests from one address are counted exactly; the right secret is never refused', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    secrets.push(client.secret);
    const source = '198.51.100.7';
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => token(client.clientId, 'wrong-secret', undefined, source)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SOURCE_FAILURE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(200 - SOURCE_FAILURE_LIMIT);
    const limited = responses.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await codeOf(limited)).toBe(90055);
    const [row] = await fx.dataSource.query(
      `SELECT failures, blocked_until FROM source_throttles WHERE tenant_id = $1 AND source = $2`,
      [tenant.id, `token:${source}`],
    );
    expect(row.failures).toBeGreaterThan(SOURCE_FAILURE_LIMIT);
    expect(row.blocked_until).not.toBeNull();
    // The right secret from the throttled address, and from anywhere else, still gets a token.
    expect((await token(client.clientId, client.secret, undefined, source)).status).toBe(200);
    expect((await token(client.clientId, client.secret, undefined, '198.51.100.8')).status).toBe(200);
    // Another address's failures are its own.
    expect((await token(client.clientId, 'wrong', undefined, '198.51.100.9')).status).toBe(401);
    // A throttled address's next failure costs no database work: the counter stays where it was.
    const [before] = await fx.dataSource.query(`SELECT failures FROM source_throttles WHERE source = $1`, [
      `token:${source}`,
    ]);
    expect((await token(client.clientId, 'wrong', undefined, source)).status).toBe(429);
    const [after] = await fx.dataSource.query(`SELECT failures FROM source_throttles WHERE source = $1`, [
      `token:${source}`,
    ]);
    expect(after.failures).toBe(before.failures);
  });

  it('a burst of failures with a known client id is audited and mailed to its contact, once per window', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    secrets.push(client.secret);
    await fx.dataSource.query(`UPDATE api_clients SET contact_email = 'ops@example.com' WHERE id = $1`, [client.id]);
    for (let i = 0; i < 25; i++) {
      expect((await token(client.clientId, 'stale-secret', undefined, `203.0.113.${i}`)).status).toBe(401);
    }
    const events = await fx.dataSource.query(
      `SELECT details FROM audit_events WHERE action = 'client.auth.failure_burst' AND target_id = $1`,
      [client.clientId],
    );
    expect(events).toHaveLength(1);
    expect(events[0].details).toMatchObject({ failures: 20, mailed: true });
    const mails = await fx.dataSource.query(
      `SELECT to_address, subject FROM emails WHERE template = 'client-auth-burst'`,
    );
    expect(mails).toEqual([{ to_address: 'ops@example.com', subject: 'Failed authentications of test client' }]);
    const metrics = await app.get(MetricsRegistry).registry.metrics();
    expect(metrics).toMatch(/gatehouse_client_authentication_failures_total\{reason="invalid_secret"\} [1-9]/);
    expect((await token(client.clientId, client.secret)).status).toBe(200);
  });

  it('unknown client ids count against the address the same way', async () => {
    const unknown = '7d0c2f1e-1111-4222-8333-944455556666';
    const responses = await Promise.all(
      Array.from({ length: SOURCE_FAILURE_LIMIT + 10 }, () => token(unknown, 'x', undefined, '198.51.100.20')),
    );
    expect(responses.filter((r) => r.status === 400)).toHaveLength(SOURCE_FAILURE_LIMIT);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(10);
    expect(await fx.dataSource.query(`SELECT 1 FROM client_auth_throttles WHERE client_id = $1`, [unknown])).toEqual(
      [],
    );
  });

  it('a sweep deletes counters whose window and block are over', async () => {
    expect((await token('5e0c2f1e-2222-4333-8444-955566667777', 'x', undefined, '198.51.100.30')).status).toBe(400);
    expect((await token('5e0c2f1e-2222-4333-8444-955566668888', 'x', undefined, '198.51.100.31')).status).toBe(400);
    await fx.dataSource.query(
      `UPDATE source_throttles SET window_started_at = now() - interval '10 minutes', blocked_until = now() - interval '5 minutes'
        WHERE source = 'token:198.51.100.30'`,
    );
    await expect(app.get(AuthFailureTracker).purgeStale()).resolves.toBeGreaterThanOrEqual(1);
    const rows: Array<{ source: string }> = await fx.dataSource.query(
      `SELECT source FROM source_throttles WHERE source IN ('token:198.51.100.30', 'token:198.51.100.31')`,
    );
    expect(rows.map((r) => r.source)).toEqual(['token:198.51.100.31']);
  });

  it("unknown client and wrong secret: Entra's statuses (400 700016, 401 7000215), comparable timing", async () => {
    const known = await Promise.all(
      Array.from({ length: 24 }, () => fx.readyClient(tenant.id, orders, ['Orders.Read'])),
    );
    const timed = async (clientId: string, expected: number) => {
      const started = performance.now();
      const response = await token(clientId, 'not-the-secret', undefined, '198.51.100.40');
      expect(response.status).toBe(expected);
      return performance.now() - started;
    };
    for (const client of known.slice(0, 4)) await timed(client.clientId, 401); // warm up
    const wrongSecret: number[] = [];
    const unknownClient: number[] = [];
    for (const [i, client] of known.slice(4).entries()) {
      // Alternate which goes first, so a burst of load on the shared machine hits both alike.
      const pair = i % 2 === 0 ? [client.clientId, crypto.randomUUID()] : [crypto.randomUUID(), client.clientId];
      for (const id of pair) {
        if (id === client.clientId) wrongSecret.push(await timed(id, 401));
        else unknownClient.push(await timed(id, 400));
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const ratio = median(unknownClient) / median(wrongSecret);
    // Both paths do one snapshot read (misses are read and cached like hits), one HMAC, a
    // constant-time comparison and one counted failure; a loose bound keeps this meaningful on a
    // shared machine.
    expect(
      ratio,
      `unknown ${median(unknownClient).toFixed(2)} ms vs wrong secret ${median(wrongSecret).toFixed(2)} ms`,
    ).toBeGreaterThan(0.33);
    expect(ratio).toBeLessThan(3);
  });

  it('logs hold no secret', async () => {
    await pause(100);
    for (const secret of secrets) expect(logs.text).not.toContain(secret);
  });
});
