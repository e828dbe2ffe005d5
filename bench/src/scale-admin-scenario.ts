import { type ConsolePageFigure, measureConsolePages } from './console-pages.js';
import type { ListPoint } from './cost-plot.js';
import { type Provisioned, type Target, round, startServer, stopServer } from './harness.js';
import {
  type AdminFigures,
  type AdminPathFigure,
  adminToken,
  explainPlans,
  lastUsersCursor,
  pathP99,
  pathsP99Together,
  startAdmin,
} from './scale-admin.js';
import { checkThroughAdminApi } from './scale-check.js';
import {
  clientIdentity,
  generateAuditEvents,
  generateAwaitingClients,
  generateUsers,
  withClient,
} from './scale-data.js';

export interface AdminScenario {
  figures: Omit<AdminFigures, 'paths' | 'notes'>;
  paths: AdminPathFigure[];
  consolePages: ConsolePageFigure[];
  plans: Array<{ query: string; plan: string }>;
  notes: string[];
  lists: ListPoint[];
}

function sql<T>(url: string, text: string, params: unknown[]): Promise<T[]> {
  return withClient(url, async (db) => (await db.query(text, params)).rows as T[]);
}

/**
 * The admin API over a million users, the clients generated so far and ten million audit events:
 * the users list's first-page p99 at each step of users (the curve), then each list the issue
 * names under load, their plans, and generated rows read back through the API.
 */
export async function measureAdmin(
  p: Provisioned,
  gatehouse: Target,
  sizes: { users: number; userSteps: number[]; audit: number; awaiting: number; clients: number },
  seed: string,
  checks: string[],
): Promise<AdminScenario> {
  const identity = await startServer(gatehouse);
  const admin = await startAdmin(gatehouse, identity.url);
  const notes: string[] = [];
  try {
    const token = await adminToken(identity, gatehouse.tokenPath, p.adminClient);
    const lists: ListPoint[] = [];
    let made = 0;
    for (const step of sizes.userSteps) {
      await generateUsers(p.databaseUrl, p.tenantId, made + 1, step);
      made = step;
      const first = await pathP99(admin, token, '/users?limit=50');
      lists.push({ rows: step, p99Ms: first.p99Ms ?? 0 });
      console.log(`  scale: GET /users with ${step} users: p99 ${first.p99Ms} ms`);
    }
    await generateAwaitingClients(p.databaseUrl, p.tenantId, seed, sizes.awaiting);
    const actors = (
      await sql<{ id: string }>(
        p.databaseUrl,
        `SELECT id FROM users WHERE tenant_id = $1 ORDER BY username LIMIT 1000`,
        [p.tenantId],
      )
    ).map((r) => r.id);
    await generateAuditEvents(p.databaseUrl, p.tenantId, sizes.audit, actors);
    const [actorClient] = await sql<{ id: string }>(p.databaseUrl, `SELECT md5('cli' || $1::text)::uuid::text AS id`, [
      actors[1],
    ]);
    const [target] = await sql<{ id: string }>(p.databaseUrl, `SELECT md5('target' || 4242)::uuid::text AS id`, []);
    const since = new Date(Date.now() - 3_600_000);
    const cursor = await lastUsersCursor(p.databaseUrl, p.tenantId);
    const q = (value: string) => encodeURIComponent(value);
    const paths = {
      search: `/users?search=${q('user4242')}&limit=50`,
      first: '/users?limit=50',
      last: `/users?limit=50&cursor=${cursor}`,
      actor: `/audit-events?actor=${actors[0]}&limit=50`,
      actorClient: `/audit-events?actor=${actorClient!.id}&limit=50`,
      action: `/audit-events?action=client.scopes.set&limit=50`,
      actionPrefix: `/audit-events?action=${q('client.*')}&limit=50`,
      target: `/audit-events?target=${target!.id}&limit=50`,
      since: `/audit-events?since=${q(since.toISOString())}&limit=50`,
      awaiting: '/clients?state=awaiting_scopes&limit=50',
    };
    const figures: Record<keyof typeof paths, AdminPathFigure> = {} as never;
    // The first and the last page side by side, in the same seconds: their ratio is the figure.
    [figures.first, figures.last] = await pathsP99Together(admin, token, [paths.first, paths.last]);
    for (const [name, path] of Object.entries(paths) as Array<[keyof typeof paths, string]>) {
      figures[name] ??= await pathP99(admin, token, path);
      console.log(`  scale: GET ${path.slice(0, 60)}: p99 ${figures[name].p99Ms} ms (status ${figures[name].status})`);
    }
    if (figures.search.p99Ms === null)
      notes.push(`GET /users?search= answered ${figures.search.status}: the search parameter is not in this build`);
    const audit = [
      figures.actor,
      figures.actorClient,
      figures.action,
      figures.actionPrefix,
      figures.target,
      figures.since,
    ];
    for (const f of [figures.first, figures.last, figures.awaiting, ...audit]) {
      if (f.p99Ms === null) throw new Error(`GET ${f.path} answered ${f.status}`);
    }
    const consolePages = await measureConsolePages(p, admin, 'user4242');
    const consoleP95 = consolePages.map((f) => f.p95Ms);
    const generatedUser = (
      await sql<{ id: string }>(
        p.databaseUrl,
        `SELECT id FROM users WHERE tenant_id = $1 AND username_normalized = 'user1'`,
        [p.tenantId],
      )
    )[0]!;
    const staffUser = (
      await sql<{ id: string }>(
        p.databaseUrl,
        `SELECT id FROM users WHERE tenant_id = $1 AND cardinality(roles) > 0 LIMIT 1`,
        [p.tenantId],
      )
    )[0]!;
    checks.push(
      ...(await checkThroughAdminApi(admin, token, [
        {
          what: 'generated client',
          generated: `/clients/${clientIdentity(seed, 0).clientId}`,
          reference: `/clients/${p.clientId}`,
          same: ['state', 'scopes'],
        },
        {
          what: 'generated user',
          generated: `/users/${generatedUser.id}`,
          reference: `/users/${staffUser.id}`,
          same: ['status'],
        },
      ])),
    );
    const [row] = await sql<{ at: Date; id: string }>(
      p.databaseUrl,
      `SELECT created_at AS at, id FROM users WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC OFFSET 50 LIMIT 1`,
      [p.tenantId],
    );
    const plans = await explainPlans(p.databaseUrl, p.tenantId, {
      actor: actors[0]!,
      actorClient: actorClient!.id,
      target: target!.id,
      since,
      usersCursor: row!,
    });
    return {
      figures: {
        usersSearchP99Ms: figures.search.p99Ms,
        auditFilterP99Ms: Math.max(...audit.map((f) => f.p99Ms!)),
        awaitingScopesP99Ms: figures.awaiting.p99Ms!,
        lastPageVsFirst: round(figures.last.p99Ms! / Math.max(0.01, figures.first.p99Ms!), 2),
        consolePagesP95Ms: consoleP95.includes(null) ? null : Math.max(...(consoleP95 as number[])),
      },
      paths: Object.values(figures),
      consolePages,
      plans,
      notes,
      lists,
    };
  } finally {
    await stopServer(admin);
    await stopServer(identity);
  }
}
