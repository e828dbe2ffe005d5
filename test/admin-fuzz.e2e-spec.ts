import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocService } from '@gatehouse/docs';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { makeCertificate } from './support/client-certificates.js';
import { LogCapture } from './support/log-capture.js';
import {
  type OpenApiDocument,
  type Operation,
  type Pools,
  bodyFor,
  brokenBodyFor,
  nastyString,
  operationsOf,
  validate,
  valueFor,
} from './support/openapi-fuzz.js';
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

/** The objects of one tenant the fuzzer aims at, and the strings that identify them. */
interface World {
  users: string[];
  clients: string[];
  keyIds: string[];
  apis: string[];
  scopes: string[];
  slugs: string[];
  invitations: string[];
  requests: string[];
  handovers: string[];
  federated: string[];
  emails: string[];
  /** Real cursors of this tenant's lists (a position, nothing more). */
  cursors: string[];
  /** Everything that names this tenant's data: ids, addresses, names. */
  markers: string[];
}

interface FuzzRequest {
  path: string;
  query: string;
  body: unknown;
  contentType: string;
}

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
 * A path parameter as one segment that still names this operation: never empty (`/users/` is the
 * list), dots escaped (`/users/..` would be normalised away by the client).
 */
function pathSegment(value: unknown): string {
  const text = String(value) || '-';
  return encodeURIComponent(text).replace(/\./g, '%2E');
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

  /** A tenant with one of everything, named with `tag` so that its strings are recognisable. */
  async function world(tenant: TenantFixture, admin: OperatorFixture, tag: string): Promise<World> {
    const ok = async (method: string, path: string, body?: unknown) => {
      const answer = await call(admin.token, method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body;
    };
    const contact = await fixtures.operator(tenant, ['ContactPerson'], `${tag}-contact`);
    const partner = await ok('post', '/users', { username: `${tag}-partner`, email: `${tag}-partner@${tag}.example`, displayName: `${tag} Partner` });
    const api = await ok('post', '/apis', { identifier: `api://${tag}-orders`, displayName: `${tag} Orders` });
    await ok('post', `/apis/${api.id}/scopes`, { value: 'Orders.Read', description: 'Read' });
    const client = await ok('post', '/clients', { displayName: `${tag} sync`, ownerUserId: partner.id, contactEmail: `${tag}-ops@${tag}.example` });
    await ok('put', `/clients/${client.clientId}/scopes`, { scopes: [`api://${tag}-orders/Orders.Read`] });
    const secret = await ok('post', `/clients/${client.clientId}/secrets`, {});
    const slug = `${tag}-guide`;
    await ok('post', '/doc-sections', { slug, title: `${tag} guide`, body: `# ${tag}` });
    const invitation = await ok('post', '/invitations', { userId: partner.id, sections: [slug] });
    const request = await ok('post', '/access-requests', {
      requesterName: `${tag} Requester`,
      requesterEmail: `${tag}-requester@${tag}.example`,
      organisation: `${tag} Ltd`,
      account: { documentation: `${tag} guide`, reason: 'Integration work' },
    });
    const handover = await ok('post', `/clients/${client.clientId}/handovers`, {});
    const federated = await ok('post', `/clients/${client.clientId}/federated-credentials`, { name: `${tag}-ci`, issuer: `https://${tag}.example`, subject: `${tag}-job` });
    const emails = (await ok('get', '/emails')).items.map((e: Json) => e.id as string);
    await app.get(DataSource).transaction((em) => app.get(DocService).grant(em, tenant.tenantId, partner.id, [slug]));
    const cursors: string[] = [];
    for (const list of ['/users', '/clients', '/apis', '/doc-sections', '/invitations', '/emails', '/audit-events']) {
      const page = await ok('get', `${list}?limit=1`);
      if (page.nextCursor) cursors.push(page.nextCursor);
    }
    const users = [partner.id, contact.user.id];
    const clients = [client.clientId, contact.clientId];
    return {
      users,
      clients,
      keyIds: [secret.keyId],
      apis: [api.id, tenant.adminApi.id],
      scopes: [`api://${tag}-orders/Orders.Read`, `api://${tag}-orders/.default`, `${api.appId}/Orders.Read`],
      slugs: [slug],
      invitations: [invitation.id],
      requests: [request.id],
      handovers: [handover.id],
      federated: [federated.id],
      emails,
      cursors,
      markers: [...users, ...clients, secret.keyId, api.id, api.appId, invitation.id, request.id, handover.id, federated.id, ...emails, `${tag}-partner@${tag}.example`, `${tag}-requester@${tag}.example`, `${tag}-ops@${tag}.example`, `api://${tag}-orders`, slug],
    };
  }

  /** Values for a field or path parameter: mostly this tenant's, sometimes the other's, sometimes junk. */
  function pools(field: string, path = ''): fc.Arbitrary<unknown> | undefined {
    const either = (own: string[], foreign: string[]) =>
      fc.oneof({ arbitrary: fc.constantFrom(...own), weight: 6 }, { arbitrary: fc.constantFrom(...foreign), weight: 2 }, { arbitrary: fc.uuid(), weight: 1 });
    if (field === 'cursor') return fc.constantFrom(...a.cursors, ...b.cursors);
    if (field === 'clientId') return either(a.clients, b.clients);
    if (field === 'keyId') return either(a.keyIds, b.keyIds);
    if (field === 'userId' || field === 'ownerUserId') return either(a.users, b.users);
    if (field === 'sections' || (field === 'slug' && path.includes('{slug}'))) return either(a.slugs, b.slugs);
    if (field === 'scopes') return either(a.scopes, b.scopes);
    if (field === 'id' && path.startsWith('/admin/v1/users')) return either(a.users, b.users);
    if (field === 'id' && path.startsWith('/admin/v1/apis')) return either(a.apis, b.apis);
    if (field === 'id' && path.startsWith('/admin/v1/invitations')) return either(a.invitations, b.invitations);
    if (field === 'id' && path.startsWith('/admin/v1/emails')) return either(a.emails, b.emails);
    if (field === 'id' && path.startsWith('/admin/v1/access-requests')) return either(a.requests, b.requests);
    if (field === 'id' && path.startsWith('/admin/v1/handovers')) return either(a.handovers, b.handovers);
    if (field === 'id' && path.includes('/federated-credentials/')) return either(a.federated, b.federated);
    // A webhook endpoint the outbound rules allow here (nothing is sent to it), else whatever comes.
    if (field === 'events') return fc.constantFrom('client.*', 'user.created', '*', 'no.such.event');
    if (field === 'url') return fc.oneof({ arbitrary: fc.constant(FUZZ_WEBHOOK_URL), weight: 3 }, { arbitrary: fc.webUrl(), weight: 1 });
    // A federated credential takes a subject or an expression, never both: mostly the subject, so some get made.
    if (path.includes('/federated-credentials')) {
      if (field === 'name') return fc.constantFrom('ci-main', 'deploy.prod', '-starts-badly');
      if (field === 'subject') return fc.constantFrom('repo:contoso/orders:ref:refs/heads/main', 'system:serviceaccount:jobs:sync');
      if (field === 'claimsMatchingExpression') {
        return fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, fc.constant({ value: "claims['sub'] matches 'repo:contoso/*'", languageVersion: 1 }));
      }
      if (field === 'description' || field === 'audiences') return fc.constant(undefined);
    }
    if (field === 'issuer') return fc.constantFrom('https://token.actions.githubusercontent.com', 'https://issuer.example/tenant', 'http://insecure.example');
    if (field === 'certificate') return fc.constantFrom(certificatePem, `${certificatePem}x`, certificatePem.replace('CERTIFICATE', 'PRIVATE KEY'));
    if (field === 'email' || field.endsWith('Email')) return fc.oneof(fc.emailAddress(), fc.constant(`x${Date.now()}@example.com`));
    // A generated password costs an argon2 hash (tens of milliseconds): mostly the mailed link, then.
    if (field === 'password' || field === 'mode') return fc.oneof({ arbitrary: fc.constant('activation-link'), weight: 5 }, { arbitrary: fc.constant('generate'), weight: 1 });
    return undefined;
  }

  function requestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
    const bodyPools: Pools = (field) => pools(field, operation.path);
    const pathParams = operation.parameters.filter((p) => p.in === 'path');
    const path = fc
      .tuple(...pathParams.map((p) => fc.oneof({ arbitrary: pools(p.name, operation.path) ?? fc.uuid(), weight: 6 }, { arbitrary: nastyString, weight: 1 })))
      .map((values) => pathParams.reduce((text, p, i) => text.replace(`{${p.name}}`, pathSegment(values[i])), operation.path));
    const queryParams = operation.parameters.filter((p) => p.in === 'query');
    const query = fc
      .tuple(
        fc.record(
          Object.fromEntries(queryParams.map((p) => [p.name, fc.oneof({ arbitrary: valueFor(document, p.schema, p.name, bodyPools), weight: 6 }, nastyString)])),
          { requiredKeys: [] },
        ),
        fc.oneof({ arbitrary: fc.constant(null), weight: 9 }, fc.constantFrom('bogus', 'limit[]', '__proto__')),
      )
      .map(([values, extra]) => {
        const params = new URLSearchParams(Object.entries(values).map(([k, v]): [string, string] => [k, String(v)]));
        if (extra) params.append(extra, '1');
        const text = params.toString();
        return text ? `?${text}` : '';
      });
    const body = operation.body
      ? fc.oneof({ arbitrary: bodyFor(document, operation.body, bodyPools), weight: 3 }, { arbitrary: brokenBodyFor(document, operation.body, bodyPools), weight: 2 })
      : fc.constant(undefined);
    const contentType = fc.constantFrom(...Array(9).fill('application/json'), 'text/plain');
    return fc.record({ path, query, body, contentType }).map((r) => ({ ...r, path: r.path.replace(/^\/admin\/v1/, '') }));
  }

  /** Every rule one answer must keep; the list of what it broke. */
  function judge(operation: Operation, sent: FuzzRequest, status: number, type: string, text: string): string[] {
    const problems: string[] = [];
    if (status >= 500) problems.push(`answered ${status}`);
    const declared = operation.responses[String(status)];
    if (!declared) return [...problems, `status ${status} is not declared (${Object.keys(operation.responses).join(', ')})`];
    const mediaType = type.split(';')[0]!.trim();
    const content = declared.content?.[mediaType];
    if (!declared.content && text) problems.push(`a body where none is declared: ${text.slice(0, 200)}`);
    if (declared.content && !content) problems.push(`media type ${mediaType || '(none)'} not declared for ${status}`);
    if (content) problems.push(...validate(document, content.schema, JSON.parse(text)).map((p) => `${status} body ${p}`));
    const asked = `${sent.path}${sent.query}${JSON.stringify(sent.body ?? '')}`;
    const namesOther = b.markers.some((marker) => `${sent.path}${JSON.stringify(sent.body ?? '')}`.includes(marker));
    if (namesOther && status < 300) problems.push(`a request naming tenant B's objects got ${status}`);
    const leaked = b.markers.filter((marker) => text.includes(marker) && !asked.includes(marker));
    if (leaked.length) problems.push(`the answer shows tenant B's ${leaked.join(', ')}`);
    return problems;
  }

  async function send(token: string, operation: Operation, request: FuzzRequest) {
    const hasBody = request.body !== undefined;
    const response = await fetch(`${base}/admin/v1${request.path}${request.query}`, {
      method: operation.method.toUpperCase(),
      headers: { authorization: `Bearer ${token}`, ...(hasBody ? { 'content-type': request.contentType } : {}) },
      body: hasBody ? JSON.stringify(request.body) : undefined,
    });
    return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
  }

  /** What tenant B holds, row by row, in every table that belongs to a tenant. */
  async function snapshotOf(tenantId: string): Promise<Record<string, string>> {
    const dataSource = app.get(DataSource);
    const tables: Array<{ table_name: string }> = await dataSource.query(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'tenant_id' ORDER BY 1`,
    );
    const snapshot: Record<string, string> = {};
    for (const { table_name: table } of tables) {
      const [row] = await dataSource.query(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') AS v FROM "${table}" t WHERE tenant_id = $1`, [tenantId]);
      snapshot[table] = row.v;
    }
    return snapshot;
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
    a = await world(tenantA, adminA, 'alpha');
    b = await world(tenantB, adminB, 'bravo');
    b.markers.push(adminB.user.id, adminB.clientId, tenantB.tenantId);
    document = (await (await fetch(`${base}/admin/openapi.json`)).json()) as OpenApiDocument;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it(`every operation, up to ${RUNS} cases each (seed ${SEED}): no 5xx, only declared answers, nothing across tenants`, async () => {
    const before = await snapshotOf(tenantB.tenantId);
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
        fc.asyncProperty(requestFor(operation), async (request) => {
          calls++;
          const answer = await send(token, operation, request);
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
    expect(await snapshotOf(tenantB.tenantId)).toEqual(before);
    expect((await call(adminB.token, 'get', '/tenant')).status).toBe(200);
  }, 600_000);
});
