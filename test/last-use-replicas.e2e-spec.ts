import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { LocalProcess, scratch } from './support/compose-topology.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures, pause } from './support/token-fixtures.js';

interface Replica {
  process: LocalProcess;
  base: string;
}

interface LastUse {
  last_used_at: Date | null;
  last_used_from: string | null;
}

/**
 * Last use across identity replicas run as the production entry point runs them (separate
 * processes on one database): each counts in memory and writes in one batched statement per
 * table; SIGTERM writes what is left; SIGKILL loses at most the last interval.
 */
describe('last use of credentials and grants, counted by each replica', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let app: INestApplication;
  let fx: TokenFixtures;
  let tenant: { id: string; slug: string };
  let orders: Awaited<ReturnType<TokenFixtures['api']>>;
  const replicas: Replica[] = [];

  async function startReplica(flushSeconds: number): Promise<Replica> {
    const [port, managementPort] = [await freePort(), await freePort()];
    const child = new LocalProcess('identity', [process.execPath, 'dist/apps/identity/src/main.js'], {
      PATH: process.env.PATH!,
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      MANAGEMENT_PORT: String(managementPort),
      DATA_DIR: scratch('last-use'),
      SECRET_PEPPER: Buffer.alloc(32, 0x11).toString('hex'),
      KEY_ENCRYPTION_KEY: Buffer.alloc(32, 0x22).toString('hex'),
      TOKEN_WARMUP_REQUESTS: '0',
      TOKEN_PRELOAD_CLIENTS: '0',
      LOG_LEVEL: 'warn',
      LAST_USE_FLUSH_SECONDS: String(flushSeconds),
    });
    const replica = { process: child, base: `http://127.0.0.1:${port}` };
    replicas.push(replica);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ready = await fetch(`http://127.0.0.1:${managementPort}/health/ready`).then((r) => r.ok, () => false);
      if (ready) return replica;
      if (!child.running || Date.now() > deadline) throw new Error(`replica did not start\n${child.output}`);
      await pause(100);
    }
  }

  async function token(replica: Replica, client: { clientId: string; secret: string }, scope = 'api://orders/.default') {
    const response = await fetch(`${replica.base}/${tenant.slug}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret, scope }),
    });
    expect(response.status).toBe(200);
  }

  async function secretUse(secretId: string): Promise<LastUse> {
    const [row] = await fx.dataSource.query(`SELECT last_used_at, last_used_from FROM client_secrets WHERE id = $1`, [secretId]);
    return row as LastUse;
  }

  async function grantUse(clientObjectId: string, scopeId: string): Promise<Date | null> {
    const [row] = await fx.dataSource.query(
      `SELECT last_used_at FROM client_scope_grants WHERE api_client_id = $1 AND scope_id = $2`,
      [clientObjectId, scopeId],
    );
    return (row as { last_used_at: Date | null }).last_used_at;
  }

  async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await pause(100);
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, { lastUseTracking: false });
    app = await createIdentityApp({ config, logDestination: new LogCapture() });
    fx = new TokenFixtures(app, config.secretPepper);
    tenant = await fx.tenant();
    orders = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read', 'Orders.Write'] });
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.process.stop('SIGKILL')));
    await app?.close();
    await database?.drop();
  });

  it('a secret used on replica 1 and another on replica 2 both show their last use, time and address, after a flush', async () => {
    const [one, two] = await Promise.all([startReplica(1), startReplica(1)]);
    const first = await fx.readyClient(tenant.id, orders, ['Orders.Read', 'Orders.Write']);
    const second = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    const before = Date.now();
    for (let i = 0; i < 5; i++) await token(one!, first);
    await token(two!, second, 'api://orders/Orders.Read');

    await until('both secrets written', async () =>
      (await secretUse(first.secretId)).last_used_at !== null && (await secretUse(second.secretId)).last_used_at !== null,
    );
    for (const secretId of [first.secretId, second.secretId]) {
      const use = await secretUse(secretId);
      expect(use.last_used_from).toBe('127.0.0.1');
      // Minute resolution: the minute of the request.
      expect(use.last_used_at!.getTime() % 60_000).toBe(0);
      expect(use.last_used_at!.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 60_000) * 60_000);
      expect(use.last_used_at!.getTime()).toBeLessThanOrEqual(Date.now());
    }
    await until('the grants written', async () => (await grantUse(second.id, orders.scopeIds['Orders.Read']!)) !== null);
    expect(await grantUse(first.id, orders.scopeIds['Orders.Write']!)).not.toBeNull();
    // The second client asked for Orders.Read only: a grant it holds and did not use stays unused.
    const unusedFirst = await fx.readyClient(tenant.id, orders, ['Orders.Read', 'Orders.Write']);
    await token(one!, unusedFirst, 'api://orders/Orders.Read');
    await until('the explicit scope written', async () => (await grantUse(unusedFirst.id, orders.scopeIds['Orders.Read']!)) !== null);
    await pause(1_500);
    expect(await grantUse(unusedFirst.id, orders.scopeIds['Orders.Write']!)).toBeNull();
    await Promise.all([one!.process.stop(), two!.process.stop()]);
  });

  it('the latest use wins whichever replica writes last', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    const later = new Date(Date.now() + 5 * 60_000);
    await fx.dataSource.query(`UPDATE client_secrets SET last_used_at = $2, last_used_from = '192.0.2.9' WHERE id = $1`, [
      client.secretId,
      later,
    ]);
    const replica = await startReplica(1);
    await token(replica, client);
    await pause(2_500);
    const use = await secretUse(client.secretId);
    expect(use.last_used_at!.getTime()).toBe(later.getTime());
    expect(use.last_used_from).toBe('192.0.2.9');
    await replica.process.stop();
  });

  it('SIGKILL loses at most the uses since the last flush; what was flushed before stays', async () => {
    const replica = await startReplica(2);
    const early = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    const late = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    await token(replica, early);
    await until('the early use written', async () => (await secretUse(early.secretId)).last_used_at !== null);
    await token(replica, late);
    expect(await replica.process.stop('SIGKILL')).toBeNull();
    expect((await secretUse(early.secretId)).last_used_at).not.toBeNull();
    expect((await secretUse(late.secretId)).last_used_at).toBeNull();
  });

  it('SIGTERM writes what was counted before the replica exits', async () => {
    const replica = await startReplica(60);
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    await token(replica, client);
    await pause(300);
    expect((await secretUse(client.secretId)).last_used_at).toBeNull();
    expect(await replica.process.stop('SIGTERM')).toBe(0);
    const use = await secretUse(client.secretId);
    expect(use.last_used_at).not.toBeNull();
    expect(use.last_used_from).toBe('127.0.0.1');
    expect(await grantUse(client.id, orders.scopeIds['Orders.Read']!)).not.toBeNull();
  });
});
