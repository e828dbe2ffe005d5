import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '@gatehouse/accounts';
import { ADMIN_API_IDENTIFIER } from '@gatehouse/apis';
import { AuthFailureTracker, SOURCE_FAILURE_LIMIT } from '@gatehouse/tokens';
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

  /** `source` is the client address a trusted proxy (loopback here) reports in X-Forwarded-For. */
  function token(clientId: string, clientSecret: string, scope = 'api://orders/.default', source = '192.0.2.1') {
    return fetch(`${baseUrl}/${tenant.slug}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': source },
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
    const config = testConfig(database.url, { publicUrl: baseUrl, trustProxy: ['loopback'] });
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
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('unauthorized_client');
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(7000112);
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
    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
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
