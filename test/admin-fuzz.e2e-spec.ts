import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { makeCertificate } from './support/client-certificates.js';
import { LogCapture } from './support/log-capture.js';
import { buildWorld, snapshotOf, type World, worldPools } from './support/fuzz-world.js';
import { type OpenApiDocument, type Operation, operationsOf } from './support/openapi-fuzz.js';
import { type FuzzRequest, type PathPools, requestFor, send, undeclared } from './support/openapi-requests.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

/**
 * Cases per operation with a body or a query (a quarter for those with only a path id). An admin
 * request costs this process about 8 ms of CPU (the app and the fuzzer share it), so CI runs 100
 * (≈ 2,400 requests); GATEHOUSE_FUZZ_RUNS=2000 (say) for a long run.
 */
const RUNS = Number(process.env.GATEHOUSE_FUZZ_RUNS ?? 100);
/** A webhook endpoint this fuzz's app allows (`webhookPrivateTargets`); nothing is ever sent to it. */
const FUZZ_WEBHOOK_URL = 'https://127.0.0.1:9/fuzz';
/** Fixed, so that a failure seen in CI is seen again on any machine; change it to explore. */
const SEED = Number(process.env.GATEHOUSE_FUZZ_SEED ?? 20261123);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * An operation whose only input is a path id has few distinct requests (the ids of both tenants,
 * random and nasty ones): a quarter of the runs covers them; bodies and queries get all of them.
 */
function runsFor(operation: Operation): number {
  const inputs = operation.body !== undefined || operation.parameters.some((p) => p.in === 'query');
  return inputs ? RUNS : Math.max(10, Math.ceil(RUNS / 4));
}

/** The answers each operation got and how long it took, kept under test-artifacts/ (not committed). */
function writeReport(statuses: Map<string, number[]>, seconds: Map<string, number>): void {
  const dir = join(import.meta.dirname, '..', 'test-artifacts');
  mkdirSync(dir, { recursive: true });
  const report = [...statuses].map(([operation, list]) => ({
    operation,
    seconds: seconds.get(operation),
    statuses: Object.fromEntries([...new Set(list)].sort().map((status) => [status, list.filter((s) => s === status).length])),
  }));
  writeFileSync(join(dir, 'admin-fuzz.json'), `${JSON.stringify({ runs: RUNS, seed: SEED, report }, null, 2)}\n`);
}

/**
 * SECURITY.md 42: every operation of the admin API's OpenAPI document, called with random and
 * boundary bodies, wrong types, huge strings, random path ids and the other tenant's ids. Every
 * answer: no 5xx, a status the document declares for that operation, a body that matches the
 * declared schema exactly; a request naming the other tenant's objects is refused, no answer shows
 * them, and the other tenant's rows are unchanged at the end.
 */
describe('admin API fuzzed from its own OpenAPI document', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let base: string;
  let fixtures: AdminFixtures;
  let tenantA: TenantFixture;
  let tenantB: TenantFixture;
  let adminA: OperatorFixture;
  let adminB: OperatorFixture;
  let a: World;
  let b: World;
  let document: OpenApiDocument;
  let pools: PathPools;
  const certificatePem = makeCertificate({ type: 'ec', name: 'fuzz.example.com' }).pem;

  async function call(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const response = await fetch(`${base}/admin/v1${path}`, {
      method: method.toUpperCase(),
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
  }

  /** Every rule one answer must keep: what the document declares, and nothing of tenant B's unless asked by name; the list of what it broke. */
  function judge(operation: Operation, sent: FuzzRequest, status: number, type: string, text: string): string[] {
    const problems = undeclared(document, operation, status, type, text);
    const asked = `${sent.path}${sent.query}${JSON.stringify(sent.body ?? '')}`;
    const namesOther = b.markers.some((marker) => `${sent.path}${JSON.stringify(sent.body ?? '')}`.includes(marker));
    if (namesOther && status < 300) problems.push(`a request naming tenant B's objects got ${status}`);
    const leaked = b.markers.filter((marker) => text.includes(marker) && !asked.includes(marker));
    if (leaked.length) problems.push(`the answer shows tenant B's ${leaked.join(', ')}`);
    return problems;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, { webhookPrivateTargets: [FUZZ_WEBHOOK_URL] });
    app = await createAdminApp({ config, logDestination: new LogCapture() });
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    fixtures = new AdminFixtures(app, config);
    tenantA = await fixtures.tenant('alpha');
    tenantB = await fixtures.tenant('bravo');
    adminA = await fixtures.operator(tenantA, ['Administrator'], 'alpha-admin');
    adminB = await fixtures.operator(tenantB, ['Administrator'], 'bravo-admin');
    a = await buildWorld(app, fixtures, call, tenantA, adminA, 'alpha');
    b = await buildWorld(app, fixtures, call, tenantB, adminB, 'bravo');
    b.markers.push(adminB.user.id, adminB.clientId, tenantB.tenantId);
    document = (await (await fetch(`${base}/admin/openapi.json`)).json()) as OpenApiDocument;
    pools = worldPools(a, b, certificatePem, FUZZ_WEBHOOK_URL);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it(`every operation, up to ${RUNS} cases each (seed ${SEED}): no 5xx, only declared answers, nothing across tenants`, async () => {
    const before = await snapshotOf(app.get(DataSource), tenantB.tenantId);
    // What removes the shared objects (a section, a secret, a pending invitation) goes last, so that
    // every other operation still finds them.
    const destructive = (operation: Operation) => operation.method === 'delete' || operation.path.endsWith('/revoke');
    const operations = operationsOf(document).sort((x, y) => Number(destructive(x)) - Number(destructive(y)));
    expect(operations.length).toBeGreaterThanOrEqual(30);
    const failures: string[] = [];
    const statuses = new Map<string, number[]>();
    const seconds = new Map<string, number>();
    let calls = 0;
    const fuzz = async (operation: Operation) => {
      const started = performance.now();
      // Fresh: the fuzz may roll the tenant's signing key, and an emergency rollover revokes the key
      // that signed the token in hand (a 401 from then on): the next request gets a new one.
      let token = await fixtures.token(tenantA, adminA, {});
      const outcome = await fc.check(
        fc.asyncProperty(requestFor(document, operation, pools), async (request) => {
          calls++;
          const answer = await send(base, token, operation, request);
          if (answer.status === 401) token = await fixtures.token(tenantA, adminA, {});
          statuses.set(`${operation.method} ${operation.path}`, [...(statuses.get(`${operation.method} ${operation.path}`) ?? []), answer.status]);
          const problems = judge(operation, request, answer.status, answer.type, answer.text);
          if (problems.length) throw new Error(problems.join('; '));
        }),
        { numRuns: runsFor(operation), seed: SEED, endOnFailure: true },
      );
      seconds.set(`${operation.method} ${operation.path}`, Math.round(performance.now() - started) / 1000);
      if (outcome.failed) {
        failures.push(`${operation.method.toUpperCase()} ${operation.path}: ${String(outcome.errorInstance)} with ${JSON.stringify(outcome.counterexample).slice(0, 500)}`);
      }
    };
    // Two lanes: a request waits on Postgres about as long as it computes, so two keep both busy.
    // Replacing the credential policy goes last: a fuzzed policy may forbid a kind of credential,
    // and the operations that add one must have had their chance to reach their handler first.
    const last = (operation: Operation) => operation.path.endsWith('/credential-policy') && operation.method !== 'get';
    const queue = operations.filter((operation) => !last(operation));
    await Promise.all([0, 1].map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await fuzz(next);
    }));
    for (const operation of operations.filter(last)) await fuzz(operation);
    writeReport(statuses, seconds);
    expect(failures).toEqual([]);
    // A fuzz that never gets past the door proves nothing: every operation reached its handler.
    const neverReached = [...statuses].filter(([, list]) => !list.some((status) => status < 300 || status === 404 || status === 409));
    expect(neverReached.map(([operation]) => operation)).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(operations.reduce((sum, operation) => sum + runsFor(operation), 0));
    expect(await snapshotOf(app.get(DataSource), tenantB.tenantId)).toEqual(before);
    expect((await call(adminB.token, 'get', '/tenant')).status).toBe(200);
  }, 600_000);
});
