import autocannon from 'autocannon';
import { encodeCursor, keysetKey } from '@gatehouse/database';
import { PROMPT_END, type RunningServer, type Target, round, smoke, startServer } from './harness.js';
import { withClient } from './scale-data.js';

/** p99 of one admin path under 4 connections (or the status that refused it). */
export interface AdminPathFigure {
  path: string;
  p99Ms: number | null;
  requestsPerSec: number;
  status: number;
}

export interface AdminFigures {
  usersSearchP99Ms: number | null;
  auditFilterP99Ms: number;
  awaitingScopesP99Ms: number;
  lastPageVsFirst: number;
  consolePagesP95Ms: number | null;
  paths: AdminPathFigure[];
  notes: string[];
}

export function adminTarget(base: Target, publicUrl: string): Target {
  return { ...base, name: 'gatehouse', script: 'admin-server.js', env: { ...base.env, PUBLIC_URL: publicUrl } };
}

export async function startAdmin(base: Target, identityUrl: string): Promise<RunningServer> {
  return startServer(adminTarget(base, identityUrl));
}

/** An admin token of the bootstrap operator's client, from the identity server's token endpoint. */
export async function adminToken(
  identity: RunningServer,
  tokenPath: string,
  client: { clientId: string; clientSecret: string; scope: string },
): Promise<string> {
  const response = await fetch(identity.url + tokenPath, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: client.scope,
    }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`admin token: ${response.status} ${text.slice(0, 200)}`);
  return (JSON.parse(text) as { access_token: string }).access_token;
}

/** GET with the admin token; the parsed body and status. */
export async function adminGet(
  admin: RunningServer,
  token: string,
  path: string,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${admin.url}/admin/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body };
}

/** p99 of a path under closed-loop load: 4 connections, 1 s warm-up, then 5 s (in smoke: 40 requests). */
export async function pathP99(admin: RunningServer, token: string, path: string): Promise<AdminPathFigure> {
  return (await pathsP99Together(admin, token, [path]))[0]!;
}

/**
 * The p99 of each path measured side by side in the same seconds: 4 connections shared among them
 * (at least one each), 1 s warm-up, then 5 s (in smoke: 40 requests each). Paths compared with each
 * other see the same collections and the same neighbours on the host, so their ratio is theirs. If
 * any path is refused, none is measured (each keeps its own status).
 */
export async function pathsP99Together(
  admin: RunningServer,
  token: string,
  paths: string[],
): Promise<AdminPathFigure[]> {
  const statuses = await Promise.all(paths.map(async (path) => (await adminGet(admin, token, path)).status));
  if (statuses.some((status) => status !== 200))
    return paths.map((path, i) => ({ path, p99Ms: null, requestsPerSec: 0, status: statuses[i]! }));
  const options = (path: string) => ({
    url: `${admin.url}/admin/v1${path}`,
    headers: { authorization: `Bearer ${token}` },
    connections: Math.max(1, Math.floor(4 / paths.length)),
    timeout: 30,
  });
  if (!smoke) await Promise.all(paths.map((path) => autocannon({ ...options(path), duration: 1 })));
  const runs = await Promise.all(
    paths.map((path) => autocannon({ ...options(path), ...(smoke ? { amount: 40, ...PROMPT_END } : { duration: 5 }) })),
  );
  return runs.map((run, i) => {
    const bad = run.non2xx + run.errors + run.timeouts;
    return {
      path: paths[i]!,
      p99Ms: bad > 0 ? null : round(run.latency.p99, 2),
      requestsPerSec: round(run.requests.total / Math.max(run.duration, 0.001), 0),
      status: bad > 0 ? 500 : 200,
    };
  });
}

/** The cursor of the last page of a tenant's users (50 a page), as the API would have issued it. */
export function lastUsersCursor(url: string, tenantId: string): Promise<string> {
  return withClient(url, async (db) => {
    const { rows } = await db.query<{ at: Date; id: string }>(
      `SELECT created_at AS at, id FROM users WHERE tenant_id = $1
        ORDER BY ${keysetKey('created_at')} DESC, id DESC OFFSET 50 LIMIT 1`,
      [tenantId],
    );
    const row = rows[0]!;
    return encodeCursor({ at: new Date(Math.floor(row.at.getTime())), id: row.id });
  });
}

/**
 * The plans of the list queries, as the repositories build them (same keyset expression, same
 * filters, 51 rows for a page of 50), with `EXPLAIN (ANALYZE, BUFFERS)`.
 */
export async function explainPlans(
  url: string,
  tenantId: string,
  probe: { actor: string; actorClient: string; target: string; since: Date; usersCursor: { at: Date; id: string } },
): Promise<Array<{ query: string; plan: string }>> {
  const users = keysetKey('u.created_at');
  const clients = keysetKey('c.created_at');
  const audit = keysetKey('e.occurred_at');
  const queries: Array<[string, unknown[]]> = [
    [`SELECT u.* FROM users u WHERE u.tenant_id = $1 ORDER BY ${users}, u.id LIMIT 51`, [tenantId]],
    [
      `SELECT u.* FROM users u WHERE u.tenant_id = $1 AND (${users}, u.id) > ($2::timestamptz AT TIME ZONE 'UTC', $3) ORDER BY ${users}, u.id LIMIT 51`,
      [tenantId, probe.usersCursor.at, probe.usersCursor.id],
    ],
    [
      `SELECT c.* FROM api_clients c WHERE c.tenant_id = $1 AND c.state = 'awaiting_scopes' ORDER BY ${clients}, c.id LIMIT 51`,
      [tenantId],
    ],
    // The actor filter is two queries (as the person, through the client), merged by the repository.
    ...[probe.actor, probe.actorClient].flatMap((actor): Array<[string, unknown[]]> =>
      ['actor_id', 'actor_client_id'].map((column) => [
        `SELECT e.* FROM audit_events e WHERE e.tenant_id = $1 AND e.${column} = $2 ORDER BY ${audit} DESC, e.id DESC LIMIT 51`,
        [tenantId, actor],
      ]),
    ),
    [
      `SELECT e.* FROM audit_events e WHERE e.tenant_id = $1 AND e.action = $2 ORDER BY ${audit} DESC, e.id DESC LIMIT 51`,
      [tenantId, 'client.scopes.set'],
    ],
    [
      `SELECT e.* FROM audit_events e WHERE e.tenant_id = $1 AND e.action LIKE $2 ORDER BY ${audit} DESC, e.id DESC LIMIT 51`,
      [tenantId, 'client.%'],
    ],
    [
      `SELECT e.* FROM audit_events e WHERE e.tenant_id = $1 AND e.target_id = $2 ORDER BY ${audit} DESC, e.id DESC LIMIT 51`,
      [tenantId, probe.target],
    ],
    [
      `SELECT e.* FROM audit_events e WHERE e.tenant_id = $1 AND ${audit} >= ($2::timestamptz AT TIME ZONE 'UTC') ORDER BY ${audit} DESC, e.id DESC LIMIT 51`,
      [tenantId, probe.since],
    ],
  ];
  return withClient(url, async (db) => {
    const plans: Array<{ query: string; plan: string }> = [];
    for (const [sql, params] of queries) {
      const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
      plans.push({ query: sql, plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
    }
    return plans;
  });
}
