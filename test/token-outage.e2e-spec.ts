import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@gatehouse/database';
import { migrateDatabase } from '@gatehouse/schema';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { TokenFixtures } from './support/token-fixtures.js';

const GRACE_SECONDS = 6;

interface Answer {
  at: number;
  status: number;
  code: number | null;
  retryAfter: string | null;
}

/**
 * DESIGN §1 / issue 13.18: while Postgres is down the token endpoint keeps issuing to the clients,
 * APIs and keys it holds in cache for TOKEN_OUTAGE_GRACE_SECONDS, answers 503 (Retry-After) to
 * everything else and to everything once the grace is over, and re-reads every cache before it
 * trusts it again. This suite runs its own PostgreSQL so that it can stop and start it.
 */
describe('token endpoint through a database outage', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-outage-'));
  const logs = new LogCapture();
  let pgPort: number;
  let database: EmbeddedDatabase;
  let app: INestApplication;
  let url: string;
  let tenant: { id: string; slug: string };
  let cached: { clientId: string; secret: string };
  let silentlyDisabled: { clientId: string; secret: string; id: string };
  let fx: TokenFixtures;

  const startPostgres = async () => {
    database = await startEmbeddedPostgres(dataDir, () => undefined, { port: pgPort });
  };

  beforeAll(async () => {
    pgPort = await freePort();
    await startPostgres();
    await migrateDatabase(database.url);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const config = testConfig(database.url, { publicUrl: url, tokenOutageGraceSeconds: GRACE_SECONDS });
    app = await createIdentityApp({ config, logDestination: logs });
    await app.listen(port, '127.0.0.1');
    fx = new TokenFixtures(app, config.secretPepper);
    tenant = await fx.tenant();
    const orders = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    cached = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    silentlyDisabled = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await database?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function token(client: { clientId: string; secret: string }): Promise<Answer> {
    const response = await fetch(`${url}/${tenant.slug}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.secret,
        scope: 'api://orders/.default',
      }),
    });
    const body = (await response.json()) as { error_codes?: number[] };
    return {
      at: Date.now(),
      status: response.status,
      code: body.error_codes?.[0] ?? null,
      retryAfter: response.headers.get('retry-after'),
    };
  }

  async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('serves cached clients within the grace, 503 to the rest and then to all, and re-reads everything once back', async () => {
    expect((await token(cached)).status).toBe(200);
    expect((await token(silentlyDisabled)).status).toBe(200);
    // Disabled just before the outage, and its announcement lost: only a re-read can see it.
    await fx.dataSource.query(`UPDATE api_clients SET state = 'disabled' WHERE id = $1`, [silentlyDisabled.id]);

    await database.stop();
    const stoppedAt = Date.now();
    const load: Answer[] = [];
    let loading = true;
    const lanes = Array.from({ length: 2 }, async () => {
      while (loading) load.push(await token(cached));
    });

    // Within the grace: the cached client keeps getting tokens; an unknown client gets 503.
    await until(
      async () => load.some((a) => a.status === 200 && a.at > stoppedAt + 1_000),
      5_000,
      'tokens during the outage',
    );
    const unknown = await token({ clientId: randomUUID(), secret: 'x' });
    expect(unknown).toMatchObject({ status: 503, code: 90033, retryAfter: '5' });
    expect(await token(silentlyDisabled)).toMatchObject({ status: 200 }); // the stated trade-off

    // After the grace: everything 503.
    await until(async () => (await token(cached)).status === 503, (GRACE_SECONDS + 10) * 1000, 'the end of the grace');
    const afterGrace = await token(cached);
    expect(afterGrace).toMatchObject({ status: 503, code: 90033, retryAfter: '5' });
    await until(async () => load.filter((a) => a.status === 503).length >= 50, 10_000, '50 refusals');
    loading = false;
    await Promise.all(lanes);
    expect(new Set(load.map((a) => a.status))).toEqual(new Set([200, 503]));
    const lastIssued = Math.max(...load.filter((a) => a.status === 200).map((a) => a.at));
    expect(lastIssued).toBeLessThan(stoppedAt + (GRACE_SECONDS + 2) * 1000);
    // Refusals are logged once per interval with a count, not once each.
    const outageLines = logs.lines.filter((line) => line.includes('database unavailable'));
    expect(outageLines.length).toBeGreaterThanOrEqual(1);
    expect(outageLines.length).toBeLessThanOrEqual(4);

    // Back: every cache is re-read before it is trusted; the silently disabled client is refused.
    await startPostgres();
    await fx.listenerConnected(true, 20_000);
    await until(async () => (await token(cached)).status === 200, 20_000, 'recovery');
    expect(await token(silentlyDisabled)).toMatchObject({ status: 400, code: 7000112 });
  }, 120_000);
});
