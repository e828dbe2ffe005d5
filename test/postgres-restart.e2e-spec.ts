import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@gatehouse/database';
import { migrateDatabase } from '@gatehouse/schema';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { TokenFixtures } from './support/token-fixtures.js';

interface Answer {
  at: number;
  status: number;
  body: string;
  retryAfter: string | null;
}

/** Internals that must never reach a client: driver messages, SQL, stack frames. */
const INTERNALS = /ECONNREFUSED|ECONNRESET|terminat|postgres|SELECT|INSERT|QueryFailed|\bat \S+ \(/i;

/**
 * SECURITY 39: PostgreSQL restarted under load. This suite runs its own PostgreSQL server (the
 * embedded one `npm start` uses) so that it can really stop and start it while the identity and
 * admin apps keep running: while it is down every answer is a 503 with a generic body, no change
 * is half written, and once it is back everything recovers without restarting the apps.
 */
describe('PostgreSQL restarted under load', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-restart-'));
  const logs = new LogCapture();
  let pgPort: number;
  let database: EmbeddedDatabase;
  let identity: INestApplication;
  let admin: INestApplication;
  let identityUrl: string;
  let adminUrl: string;
  let tenant: TenantFixture;
  let operator: OperatorFixture;
  let tokenForm: string;
  let tokenClientId: string;
  let tokens: TokenFixtures;

  const startPostgres = async () => {
    database = await startEmbeddedPostgres(dataDir, () => undefined, { port: pgPort });
  };

  beforeAll(async () => {
    pgPort = await freePort();
    await startPostgres();
    await migrateDatabase(database.url);
    const identityPort = await freePort();
    identityUrl = `http://127.0.0.1:${identityPort}`;
    // Grace 0: the old behaviour, every token request 503 while the database is down (token-outage.e2e-spec.ts tests the grace).
    const config = testConfig(database.url, { publicUrl: identityUrl, tokenOutageGraceSeconds: 0 });
    identity = await createIdentityApp({ config, logDestination: logs });
    await identity.listen(identityPort, '127.0.0.1');
    admin = await createAdminApp({ config, logDestination: logs });
    const adminPort = await freePort();
    await admin.listen(adminPort, '127.0.0.1');
    adminUrl = `http://127.0.0.1:${adminPort}/admin/v1`;

    const adminFixtures = new AdminFixtures(admin, config);
    tenant = await adminFixtures.tenant();
    operator = await adminFixtures.operator(tenant, ['Administrator']);
    tokens = new TokenFixtures(identity, config.secretPepper);
    const orders = await tokens.api(tenant.tenantId, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    const client = await tokens.readyClient(tenant.tenantId, orders, ['Orders.Read']);
    tokenClientId = client.clientId;
    tokenForm = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.secret,
      scope: 'api://orders/.default',
    }).toString();
  }, 120_000);

  afterAll(async () => {
    await identity?.close();
    await admin?.close();
    await database?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function answer(response: Response): Promise<Answer> {
    return {
      at: Date.now(),
      status: response.status,
      body: await response.text(),
      retryAfter: response.headers.get('retry-after'),
    };
  }

  const requestToken = () =>
    fetch(`${identityUrl}/${tenant.slug}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenForm,
    }).then(answer);

  let created = 0;
  const createClient = () =>
    fetch(`${adminUrl}/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: `restart-${++created}`, contactEmail: 'ops@example.com' }),
    }).then(answer);

  /** Calls `call` back to back on `lanes` lanes until `until` resolves, collecting every answer. */
  async function underLoad<T>(lanes: number, call: () => Promise<Answer>, until: Promise<T>): Promise<Answer[]> {
    const answers: Answer[] = [];
    let done = false;
    void until.finally(() => (done = true));
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (!done) {
          answers.push(
            await call().catch((error: Error) => ({
              at: Date.now(),
              status: 0,
              body: error.message,
              retryAfter: null,
            })),
          );
        }
      }),
    );
    return answers;
  }

  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('answers 503 with a generic body while it is down, writes nothing by halves, and recovers by itself', async () => {
    // Taken before the stop: PostgreSQL refuses connections as soon as its shutdown begins, and
    // the shutdown (a checkpoint first) can take over a second on a busy machine.
    let stoppingAt = 0;
    const during: Answer[] = [];
    const script = (async () => {
      await settle(1_000);
      stoppingAt = Date.now();
      await database.stop();
      await settle(1_500);
      during.push(
        await fetch(`${identityUrl}/invitations/${'a'.repeat(43)}`).then(answer),
        await fetch(`${identityUrl}/health/ready`).then(answer),
      );
      await settle(1_500);
      await startPostgres();
      // Recovery: both apps answer normally again within a few seconds, with no restart.
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const [token, write] = await Promise.all([requestToken(), createClient()]);
        if (token.status === 200 && write.status === 201) return;
        await settle(200);
      }
      throw new Error('no recovery within 20 s of the restart');
    })();
    const [tokenAnswers, adminAnswers] = await Promise.all([
      underLoad(3, requestToken, script),
      underLoad(1, createClient, script),
      script,
    ]);

    // Load ran before, during and after the outage; only the two expected statuses ever came back.
    expect(tokenAnswers.filter((a) => a.at < stoppingAt && a.status === 200).length).toBeGreaterThan(10);
    expect(new Set(tokenAnswers.map((a) => a.status))).toEqual(new Set([200, 503]));
    expect(new Set(adminAnswers.map((a) => a.status))).toEqual(new Set([201, 503]));
    for (const refused of tokenAnswers.filter((a) => a.status === 503)) {
      expect(refused.at).toBeGreaterThanOrEqual(stoppingAt);
      expect(JSON.parse(refused.body)).toMatchObject({ error: 'temporarily_unavailable', error_codes: [90033] });
      expect(refused.body).not.toMatch(INTERNALS);
      expect(refused.retryAfter).toBe('5');
    }
    for (const refused of adminAnswers.filter((a) => a.status === 503)) {
      expect(JSON.parse(refused.body)).toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(refused.body).not.toMatch(INTERNALS);
      expect(refused.retryAfter).toBe('5');
    }
    const [invitationPage, readiness] = during;
    expect(invitationPage!.status).toBe(503);
    expect(invitationPage!.retryAfter).toBe('5');
    expect(invitationPage!.body).toContain('Temporarily unavailable');
    expect(invitationPage!.body).not.toMatch(INTERNALS);
    expect(readiness!.status).toBe(503);

    // Nothing half written: every client that exists has its audit event, and every 201 exists.
    const dataSource = admin.get(DataSource);
    const rows: Array<{ display_name: string; audited: number }> = await dataSource.query(
      `SELECT c.display_name,
              (SELECT count(*)::int FROM audit_events e
                WHERE e.tenant_id = c.tenant_id AND e.action = 'client.created' AND e.target_id = c.client_id::text) AS audited
         FROM api_clients c WHERE c.tenant_id = $1 AND c.display_name LIKE 'restart-%'`,
      [tenant.tenantId],
    );
    for (const row of rows) expect(row, row.display_name).toMatchObject({ audited: 1 });
    const createdNames = new Set(rows.map((row) => row.display_name));
    for (const ok of adminAnswers.filter((a) => a.status === 201)) {
      expect(createdNames.has((JSON.parse(ok.body) as { displayName: string }).displayName)).toBe(true);
    }

    // After the restart: readiness is back, and changes reach the token endpoint's caches again.
    expect((await fetch(`${identityUrl}/health/ready`)).status).toBe(200);
    await tokens.listenerConnected(true, 10_000);
    expect((await requestToken()).status).toBe(200);
    const disabled = await fetch(`${adminUrl}/clients/${tokenClientId}/disable`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator.token}` },
    });
    expect(disabled.status).toBe(200);
    const deadline = Date.now() + 2_000;
    let refused = await requestToken();
    while (refused.status === 200 && Date.now() < deadline) refused = await requestToken();
    expect(refused.status).toBe(400);
  }, 120_000);
});
