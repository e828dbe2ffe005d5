import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsRegistry } from '@gatehouse/http';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures, pause } from './support/token-fixtures.js';

describe('token path warm-up at start', () => {
  let database: TestDatabase;
  let app: INestApplication;
  const logs = new LogCapture();
  const countRows = async (fx: TokenFixtures) => {
    const [row] = await fx.dataSource.query(
      `SELECT (SELECT count(*) FROM tenants)::int AS tenants, (SELECT count(*) FROM api_clients)::int AS clients,
              (SELECT count(*) FROM signing_keys)::int AS keys, (SELECT count(*) FROM audit_events)::int AS audit,
              (SELECT count(*) FROM source_throttles)::int AS throttles`,
    );
    return row as Record<string, number>;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createIdentityApp({
      config: testConfig(database.url, { tokenWarmUpRequests: 400, logLevel: 'info' }),
      logDestination: logs,
    });
    await app.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('issues its tokens before the app serves, and leaves no trace: no rows, no counted tokens, no refusals, no tenant to reach', async () => {
    await pause(50);
    // Many clients in turn and a new connection every ten requests: a first second's many clients and connections.
    const warmed = /token path warmed up: 400 requests from 320 clients on (\d+) connections in \d+ ms/.exec(logs.text);
    expect(Number(warmed?.[1])).toBeGreaterThanOrEqual(40); // 40, or a few more that the last requests raced to
    expect(logs.text).not.toContain('token request refused');
    const metrics = await app.get(MetricsRegistry).registry.metrics();
    expect(metrics).toMatch(/^gatehouse_tokens_issued_total 0$/m);
    expect(metrics).toMatch(/^gatehouse_cache_hits_total 0$/m);
    // Before its tokens, one request went through Express (request logging's async context is
    // entered before the token path is optimized), then one in every 20 (Node's HTTP code meets
    // both kinds of request objects); health probes, so no access log line.
    expect(metrics).toMatch(/^http_request_duration_seconds_count\{[^}]*route="\/health\/live"[^}]*\} 21$/m);
    expect(logs.text).not.toContain('/health/live');
    // The warm-up ran on the app's own server and closed it; the app then listened as usual.
    const { port } = app.getHttpServer().address() as { port: number };
    expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);

    const fx = new TokenFixtures(app, testConfig(database.url).secretPepper);
    expect(await countRows(fx)).toEqual({ tenants: 0, clients: 0, keys: 0, audit: 0, throttles: 0 });
    const warmUpTenant = /"tenant":"([0-9a-f-]{36})"/.exec(logs.text)?.[1];
    expect(warmUpTenant).toBeUndefined(); // its id is not logged either

    // A real tenant and client are served as on any app.
    const tenant = await fx.tenant({ lifetime: 900, extLifetime: 1800 });
    const orders = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    const issued = await request(app.getHttpServer())
      .post(`/${tenant.slug}/oauth2/v2.0/token`)
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret, scope: 'api://warm-up/.default' });
    expect(issued.status).toBe(400); // the warm-up's API is nobody's
    const token = await request(app.getHttpServer())
      .post(`/${tenant.slug}/oauth2/v2.0/token`)
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret, scope: 'api://orders/.default' })
      .expect(200);
    expect(token.body.access_token).toEqual(expect.any(String));
    expect(await app.get(MetricsRegistry).registry.metrics()).toMatch(/^gatehouse_tokens_issued_total 1$/m);
  });
});
