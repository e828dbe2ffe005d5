import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '@gatehouse/accounts';
import { ADMIN_API_IDENTIFIER } from '@gatehouse/apis';
import { ClientAuthenticator } from '@gatehouse/tokens';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures, pause } from './support/token-fixtures.js';

/** Changes made by the admin side (rows + announceChange in one transaction) take effect at once. */
describe('token endpoint: rotation, revocation and throttling', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let fx: TokenFixtures;
  let baseUrl: string;
  const logs = new LogCapture();
  const secrets: string[] = [];
  let tenant: { id: string; slug: string };
  let orders: Awaited<ReturnType<TokenFixtures['api']>>;
  let admin: Awaited<ReturnType<TokenFixtures['api']>>;

  function token(clientId: string, clientSecret: string, scope = 'api://orders/.default') {
    return fetch(`${baseUrl}/${tenant.slug}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope,
      }),
    });
  }
  async function codeOf(response: Response): Promise<number> {
    if (response.status === 200) return 200;
    const body = (await response.json()) as { error_codes: number[] };
    return body.error_codes[0]!;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const config = testConfig(database.url, { publicUrl: baseUrl });
    app = await createIdentityApp({ config, logDestination: logs });
    await app.listen(port, '127.0.0.1');
    fx = new TokenFixtures(app, config.secretPepper);
    tenant = await fx.tenant();
    orders = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read', 'Orders.Write'] });
    admin = await fx.api(tenant.id, { identifier: ADMIN_API_IDENTIFIER, scopes: [...ALL_PERMISSIONS], builtIn: true });
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('two secrets both work; a revoked one fails at once while the other still works', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    const second = await fx.secret(tenant.id, client.id);
    secrets.push(client.secret, second.value);
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(200);
    expect(await codeOf(await token(client.clientId, second.value))).toBe(200);
    await fx.change(`UPDATE client_secrets SET revoked_at = now() WHERE id = $1`, [client.secretId], {
      kind: 'client',
      tenantId: tenant.id,
      id: client.clientId,
    });
    await fx.settle();
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(7000215);
    expect(await codeOf(await token(client.clientId, second.value))).toBe(200);
  });

  it('a secret that expired is refused with 7000222', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    secrets.push(client.secret);
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(200);
    await fx.change(
      `UPDATE client_secrets SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [client.secretId],
      {
        kind: 'client',
        tenantId: tenant.id,
        id: client.clientId,
      },
    );
    await fx.settle();
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(7000222);
  });

  it('a disabled client is refused at once', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    secrets.push(client.secret);
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(200);
    await fx.change(`UPDATE api_clients SET state = 'disabled' WHERE id = $1`, [client.id], {
      kind: 'client',
      tenantId: tenant.id,
      id: client.clientId,
    });
    await fx.settle();
    const response = await token(client.clientId, client.secret);
    expect(response.status).toBe(401);
    expect(await codeOf(response)).toBe(7000112);
  });

  it('a removed grant is refused at once with invalid_scope', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read', 'Orders.Write']);
    secrets.push(client.secret);
    expect(await codeOf(await token(client.clientId, client.secret, 'api://orders/Orders.Write'))).toBe(200);
    await fx.change(
      `DELETE FROM client_scope_grants WHERE api_client_id = $1 AND scope_id = $2`,
      [client.id, orders.scopeIds['Orders.Write']],
      {
        kind: 'client',
        tenantId: tenant.id,
        id: client.clientId,
      },
    );
    await fx.settle();
    const response = await token(client.clientId, client.secret, 'api://orders/Orders.Write');
    expect(response.status).toBe(400);
    expect(await codeOf(response)).toBe(70011);
    expect(await codeOf(await token(client.clientId, client.secret, 'api://orders/Orders.Read'))).toBe(200);
  });

  it('the admin API: scopes come from the owner roles; a disabled owner disables the client', async () => {
    const owner = await fx.user(tenant.id, { roles: ['Auditor'] });
    const client = await fx.client(tenant.id, { ownerUserId: owner.id });
    const secret = await fx.secret(tenant.id, client.id);
    secrets.push(secret.value);
    await fx.grant(tenant.id, client.id, [admin.scopeIds['Tenant.Manage']!]); // direct grants are ignored
    const response = await token(client.clientId, secret.value, 'api://gatehouse-admin/.default');
    expect(response.status).toBe(200);
    const { access_token } = (await response.json()) as { access_token: string };
    const claims = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims.roles).toEqual(['Audit.Read', 'Clients.Read', 'Requests.Read', 'Users.Read']);
    expect(await codeOf(await token(client.clientId, secret.value, 'api://gatehouse-admin/Tenant.Manage'))).toBe(70011);
    const roleless = await fx.client(tenant.id, { ownerUserId: (await fx.user(tenant.id)).id });
    const rolelessSecret = await fx.secret(tenant.id, roleless.id);
    secrets.push(rolelessSecret.value);
    expect(await codeOf(await token(roleless.clientId, rolelessSecret.value, 'api://gatehouse-admin/.default'))).toBe(
      70011,
    );
    await fx.change(`UPDATE users SET status = 'disabled' WHERE id = $1`, [owner.id], {
      kind: 'user',
      tenantId: tenant.id,
      id: owner.id,
    });
    await fx.settle();
    expect(await codeOf(await token(client.clientId, secret.value, 'api://gatehouse-admin/.default'))).toBe(7000112);
  });

  it('an operator client still awaiting scopes gets admin tokens from its roles, nothing else', async () => {
    const owner = await fx.user(tenant.id, { roles: ['ITDepartment'] });
    const client = await fx.client(tenant.id, { ownerUserId: owner.id, state: 'awaiting_scopes' });
    const secret = await fx.secret(tenant.id, client.id);
    secrets.push(secret.value);
    const response = await token(client.clientId, secret.value, 'api://gatehouse-admin/.default');
    expect(response.status).toBe(200);
    const { access_token } = (await response.json()) as { access_token: string };
    const claims = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims.roles).toEqual(['Apis.Manage', 'Clients.Read', 'Requests.Read', 'Scopes.Assign']);
    expect(await codeOf(await token(client.clientId, secret.value, 'api://orders/.default'))).toBe(501051);
    // Roles taken away (announced as a user change): the client is left with nothing.
    await fx.change(`UPDATE users SET roles = '{}' WHERE id = $1`, [owner.id], {
      kind: 'user',
      tenantId: tenant.id,
      id: owner.id,
    });
    await fx.settle();
    expect(await codeOf(await token(client.clientId, secret.value, 'api://gatehouse-admin/.default'))).toBe(501051);
  });

  it('200 parallel wrong-secret requests are counted exactly and nothing slips past the limit', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    secrets.push(client.secret);
    const responses = await Promise.all(Array.from({ length: 200 }, () => token(client.clientId, 'wrong-secret')));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(180);
    const limited = responses.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const [row] = await fx.dataSource.query(
      `SELECT failures, blocked_until FROM client_auth_throttles WHERE tenant_id = $1 AND client_id = $2`,
      [tenant.id, client.clientId],
    );
    expect(row.failures).toBe(200);
    expect(row.blocked_until).not.toBeNull();
    await fx.settle();
    const correct = await token(client.clientId, client.secret);
    expect(correct.status).toBe(429);
    expect(Number(correct.headers.get('retry-after'))).toBeGreaterThan(0);
    const [after] = await fx.dataSource.query(`SELECT failures FROM client_auth_throttles WHERE client_id = $1`, [
      client.clientId,
    ]);
    expect(after.failures).toBe(201);
  });

  it('letter-case variants of a client id share one counter (no way around the limit)', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    secrets.push(client.secret);
    const variants = Array.from({ length: 25 }, (_, i) =>
      [...client.clientId].map((c, j) => ((i >> (j % 5)) & 1 ? c.toUpperCase() : c)).join(''),
    );
    const statuses: number[] = [];
    for (const variant of variants) statuses.push((await token(variant, 'wrong')).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const rows = await fx.dataSource.query(
      `SELECT client_id, failures FROM client_auth_throttles WHERE lower(client_id) = $1`,
      [client.clientId],
    );
    expect(rows).toEqual([{ client_id: client.clientId, failures: 25 }]);
    await fx.settle();
    expect((await token(client.clientId.toUpperCase(), client.secret)).status).toBe(429);
  });

  it('unknown client ids are throttled the same way', async () => {
    const unknown = '7d0c2f1e-1111-4222-8333-944455556666';
    const responses = await Promise.all(Array.from({ length: 30 }, () => token(unknown, 'x')));
    expect(responses.filter((r) => r.status === 401)).toHaveLength(20);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(10);
  });

  it('a sweep deletes throttle rows whose window and block are over', async () => {
    const stale = '5e0c2f1e-2222-4333-8444-955566667777';
    const fresh = '5e0c2f1e-2222-4333-8444-955566668888';
    expect((await token(stale, 'x')).status).toBe(401);
    expect((await token(fresh, 'x')).status).toBe(401);
    await fx.dataSource.query(
      `UPDATE client_auth_throttles SET window_started_at = now() - interval '10 minutes', blocked_until = now() - interval '5 minutes'
        WHERE client_id = $1`,
      [stale],
    );
    await expect(app.get(ClientAuthenticator).purgeStaleThrottles()).resolves.toBeGreaterThanOrEqual(1);
    const rows: Array<{ client_id: string }> = await fx.dataSource.query(
      `SELECT client_id FROM client_auth_throttles WHERE client_id IN ($1, $2)`,
      [stale, fresh],
    );
    expect(rows.map((r) => r.client_id)).toEqual([fresh]);
  });

  it('unknown client and wrong secret: same status, comparable timing', async () => {
    const known = await Promise.all(
      Array.from({ length: 24 }, () => fx.readyClient(tenant.id, orders, ['Orders.Read'])),
    );
    const timed = async (clientId: string) => {
      const started = performance.now();
      const response = await token(clientId, 'not-the-secret');
      expect(response.status).toBe(401);
      return performance.now() - started;
    };
    for (const client of known.slice(0, 4)) await timed(client.clientId); // warm up
    const wrongSecret: number[] = [];
    const unknownClient: number[] = [];
    for (const [i, client] of known.slice(4).entries()) {
      // Alternate which goes first, so a burst of load on the shared machine hits both alike.
      const pair = i % 2 === 0 ? [client.clientId, crypto.randomUUID()] : [crypto.randomUUID(), client.clientId];
      for (const id of pair) (id === client.clientId ? wrongSecret : unknownClient).push(await timed(id));
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

  it('while the change listener is down, caches are bypassed (a silent change still takes effect)', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    secrets.push(client.secret);
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(200);
    await fx.dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'gatehouse-listener' AND datname = current_database()`,
    );
    await fx.listenerConnected(false);
    // No announcement at all: only a bypassed (or dropped) cache can see this.
    await fx.dataSource.query(`UPDATE api_clients SET state = 'disabled' WHERE id = $1`, [client.id]);
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(7000112);
    await fx.dataSource.query(`UPDATE api_clients SET state = 'active' WHERE id = $1`, [client.id]);
    await fx.listenerConnected(true); // it reconnects after 1 s and drops every cache
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(200);
  });

  it('logs hold no secret', async () => {
    await pause(100);
    for (const secret of secrets) expect(logs.text).not.toContain(secret);
  });
});
