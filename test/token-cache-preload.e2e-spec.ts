import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsRegistry } from '@gatehouse/http';
import { CredentialDirectory } from '@gatehouse/tokens';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures, pause } from './support/token-fixtures.js';

describe('token cache preload at start (TOKEN_PRELOAD_CLIENTS)', () => {
  let database: TestDatabase;
  let setup: INestApplication;
  const started: INestApplication[] = [];
  let fx: TokenFixtures;
  let tenant: { id: string; slug: string };
  let orders: Awaited<ReturnType<TokenFixtures['api']>>;
  const ready: Array<{ id: string; clientId: string; secret: string }> = [];
  let disabled: { clientId: string };

  // One capture for every app of the file: the process' logger keeps the first app's destination.
  const capture = new LogCapture();
  const startWith = async (tokenPreloadClients: number) => {
    const from = capture.lines.length;
    const app = await createIdentityApp({
      config: testConfig(database.url, { tokenPreloadClients, logLevel: 'info' }),
      logDestination: capture,
    });
    await app.listen(0, '127.0.0.1');
    started.push(app);
    const logs = { get text() { return capture.lines.slice(from).join('\n'); } };
    return { app, directory: app.get(CredentialDirectory), logs };
  };
  const misses = async (app: INestApplication) =>
    Number(/^gatehouse_cache_misses_total (\d+)$/m.exec(await app.get(MetricsRegistry).registry.metrics())?.[1]);

  beforeAll(async () => {
    database = await createTestDatabase();
    setup = await createIdentityApp({ config: testConfig(database.url, { logLevel: 'info' }), logDestination: capture });
    fx = new TokenFixtures(setup, testConfig(database.url).secretPepper);
    tenant = await fx.tenant({ lifetime: 900, extLifetime: 1800 });
    orders = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    for (let i = 0; i < 5; i++) {
      ready.push(await fx.readyClient(tenant.id, orders, ['Orders.Read']));
      await pause(5); // distinct updated_at, oldest first
    }
    disabled = await fx.client(tenant.id, { state: 'disabled' });
  });

  afterAll(async () => {
    for (const app of started) await app.close();
    await setup?.close();
    await database?.drop();
  });

  it('reads the active clients into the cache before serving; their first token needs no query', async () => {
    const { app, directory, logs } = await startWith(1000);
    await pause(50);
    expect(logs.text).toMatch(/token cache preloaded: 5 clients in \d+ ms/);
    for (const client of ready) {
      expect(directory.cachedClient(tenant.id, client.clientId)?.client.clientId).toBe(client.clientId);
    }
    expect(directory.cachedClient(tenant.id, disabled.clientId)).toBeUndefined(); // only active ones are read ahead

    const missesBefore = await misses(app);
    const token = await request(app.getHttpServer())
      .post(`/${tenant.slug}/oauth2/v2.0/token`)
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: ready[0]!.clientId, client_secret: ready[0]!.secret, scope: 'api://orders/.default' })
      .expect(200);
    expect(token.body.access_token).toEqual(expect.any(String));
    // The tenant and the API are read on the first request; the client is not.
    const reads = (await misses(app)) - missesBefore;
    expect(reads).toBeLessThanOrEqual(2);
  });

  it('takes the most recently changed clients first when it may read fewer than exist', async () => {
    const { directory, logs } = await startWith(2);
    await pause(50);
    expect(logs.text).toMatch(/token cache preloaded: 2 clients/);
    const cached = ready.map((c) => directory.cachedClient(tenant.id, c.clientId) !== undefined);
    expect(cached).toEqual([false, false, false, true, true]);
  });

  it('drops a preloaded client when it changes, like any cached one', async () => {
    const { app, directory } = await startWith(1000);
    const target = ready[1]!;
    expect(directory.cachedClient(tenant.id, target.clientId)).toBeDefined();
    await fx.change(`UPDATE api_clients SET state = 'disabled', updated_at = now() WHERE id = $1`, [target.id], {
      kind: 'client',
      tenantId: tenant.id,
      id: target.clientId,
    });
    await expect.poll(() => directory.cachedClient(tenant.id, target.clientId), { timeout: 5000 }).toBeUndefined();
    const refused = await request(app.getHttpServer())
      .post(`/${tenant.slug}/oauth2/v2.0/token`)
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: target.clientId, client_secret: target.secret, scope: 'api://orders/.default' });
    expect(refused.status).toBe(400);
    expect(refused.body.error_codes).toEqual([7000112]);
  });

  it('0 reads nothing ahead', async () => {
    const { directory, logs } = await startWith(0);
    expect(logs.text).not.toContain('token cache preloaded');
    expect(directory.cachedClient(tenant.id, ready[4]!.clientId)).toBeUndefined();
  });
});
