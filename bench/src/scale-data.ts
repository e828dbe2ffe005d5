import { hash } from 'node:crypto';
import pg from 'pg';
import { SecretHasher, clientSecretFrom, secretHint } from '@gatehouse/crypto';
import { API_IDENTIFIER } from './protocol.js';

/**
 * Rows for the scale scenarios, written with multi-row statements (`INSERT … SELECT FROM unnest`
 * or `generate_series`), not through a million API calls. Clients are derived from a seed and an
 * index, so the load generators (other processes) can compute client i's id and secret without a
 * list: `clientIdentity(seed, i)`. `checkGeneratedRows` compares generated rows with rows the real
 * services wrote in the same database.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * SHA-256 of `seed|what|i` in hex. The one-shot `hash` makes no Hash object and no Buffer: a load
 * generator derives a client's credentials for every request it sends, and four native objects a
 * request made its scavenges take 5–14 ms (their weak callbacks), every half second, counted as
 * the server's latency.
 */
function digest(seed: string, what: string, i: number): string {
  return hash('sha256', `${seed}|${what}|${i}`, 'hex');
}

/** A version-4-shaped UUID from 32 hex digits. */
function uuidOf(hex: string): string {
  const variant = ((parseInt(hex[16]!, 16) & 3) | 8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface ClientIdentity {
  /** The row id (`oid` of its tokens). */
  id: string;
  clientId: string;
  secret: string;
}

/** Client i of a generated set: its ids and its secret in the scannable format the API issues. */
export function clientIdentity(seed: string, i: number): ClientIdentity {
  return { id: uuidOf(digest(seed, 'row', i)), ...credentialsOf(seed, i) };
}

/** What client i sends: its client id and its secret (43 base62 characters from 64 derived bytes). */
function credentialsOf(seed: string, i: number): { clientId: string; secret: string } {
  const bytes = digest(seed, 'secret', i) + digest(seed, 'secret2', i);
  let random = '';
  for (let k = 0; random.length < 43; k++) random += BASE62[parseInt(bytes.slice(2 * k, 2 * k + 2), 16) % 62];
  return { clientId: uuidOf(digest(seed, 'client', i)), secret: clientSecretFrom(random) };
}

/** The token request of client i (every body of a set has the same length: fixed-size ids and secrets). */
export function tokenBody(seed: string, i: number): string {
  const { clientId, secret } = credentialsOf(seed, i);
  return `grant_type=client_credentials&client_id=${clientId}&client_secret=${secret}&scope=${encodeURIComponent(`${API_IDENTIFIER}/.default`)}`;
}

/** One connection for the work, closed after it. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Clients `from` ≤ i < `to` of the set: active, a secret valid for a year (HMAC-SHA256 with the
 * pepper, by `SecretHasher` itself) and the scope granted, in transactions of 10,000 clients.
 */
export async function generateClients(
  url: string,
  options: { tenantId: string; scopeId: string; seed: string; pepper: Buffer; from: number; to: number },
): Promise<void> {
  const chunk = 10_000;
  const hasher = new SecretHasher(options.pepper);
  await withClient(url, async (db) => {
    const load = async () => {
      for (let start = options.from; start < options.to; start += chunk) {
        const end = Math.min(options.to, start + chunk);
        const ids: string[] = [];
        const clientIds: string[] = [];
        const hashes: string[] = [];
        const hints: string[] = [];
        const keyIds: string[] = [];
        for (let i = start; i < end; i++) {
          const identity = clientIdentity(options.seed, i);
          ids.push(identity.id);
          clientIds.push(identity.clientId);
          hashes.push(`\\x${hasher.hash(identity.secret).toString('hex')}`);
          hints.push(secretHint(identity.secret));
          keyIds.push(uuidOf(digest(options.seed, 'key', i)));
        }
        await db.query('BEGIN');
        await db.query(
          `INSERT INTO api_clients (id, tenant_id, client_id, display_name, contact_email, state, created_at, updated_at)
         SELECT id, $1, client_id, 'Scale client ' || n, 'scale' || n || '@example.com', 'active', t, t
           FROM unnest($2::uuid[], $3::uuid[]) WITH ORDINALITY AS u(id, client_id, n),
                LATERAL (SELECT now() - make_interval(secs => ($5::int - $4::int - n)::float8 / 100)) AS at(t)`,
          [options.tenantId, ids, clientIds, start, options.to],
        );
        await db.query(
          `INSERT INTO client_secrets (tenant_id, api_client_id, key_id, hint, display_name, secret_hash, expires_at)
         SELECT $1, id, key_id, hint, 'generated', hash, now() + interval '365 days'
           FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::bytea[]) AS u(id, key_id, hint, hash)`,
          [options.tenantId, ids, keyIds, hints, hashes],
        );
        await db.query(
          `INSERT INTO client_scope_grants (api_client_id, scope_id, tenant_id) SELECT id, $2, $1 FROM unnest($3::uuid[]) AS u(id)`,
          [options.tenantId, options.scopeId, ids],
        );
        await db.query('COMMIT');
      }
    };
    // Only generation writes meanwhile (no server runs), so the secondary indexes are rebuilt after it.
    await withIndexesRebuilt(db, url, 'api_clients', () => withIndexesRebuilt(db, url, 'client_secrets', load));
    await db.query('VACUUM ANALYZE client_scope_grants');
  });
}

/** `count` clients awaiting scopes (no secret, no grant): the work queue `GET /clients?state=awaiting_scopes` reads. */
export async function generateAwaitingClients(
  url: string,
  tenantId: string,
  seed: string,
  count: number,
): Promise<void> {
  await withClient(url, (db) =>
    db.query(
      `INSERT INTO api_clients (tenant_id, client_id, display_name, contact_email, state, created_at, updated_at)
       SELECT $1, md5($2 || i)::uuid, 'Awaiting ' || i, 'awaiting' || i || '@example.com', 'awaiting_scopes',
              now() - make_interval(secs => i), now() - make_interval(secs => i)
         FROM generate_series(1, $3::int) AS i`,
      [tenantId, `${seed}|awaiting|`, count],
    ),
  );
}

/**
 * Indexes of a table dropped before a bulk load and rebuilt after it (one sorted build per index
 * instead of 10⁷ random inserts into each); the definitions are read back from the catalogue, so
 * the rebuilt indexes are the migrations' own. Unique indexes too (not those behind a constraint):
 * rebuilding one checks that the generated rows are unique, as the inserts would have.
 */
async function withIndexesRebuilt(db: pg.Client, url: string, table: string, load: () => Promise<void>): Promise<void> {
  const { rows } = await db.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
      WHERE i.indrelid = $1::regclass AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [table],
  );
  for (const row of rows) await db.query(`DROP INDEX ${row.name}`);
  await load();
  // Two builds at a time, each on its own connection: the machine's two cores.
  await inParallel(url, rows.map((row) => row.definition), async (builder, definition) => {
    await builder.query(`SET maintenance_work_mem = '256MB'`);
    await builder.query(definition);
  });
  await db.query(`VACUUM ANALYZE ${table}`);
  // The load's dirty pages written now, not by a checkpoint in the middle of a measured scenario.
  await db.query('CHECKPOINT');
}

/** Runs `work` on each item, two at a time, on two connections of their own. */
export async function inParallel<T>(url: string, items: T[], work: (db: pg.Client, item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = () =>
    withClient(url, async (db) => {
      while (next < items.length) await work(db, items[next++]!);
    });
  await Promise.all([lane(), lane()]);
}

/** [from, to] ranges of at most `size` covering 1 … `count`. */
function ranges(count: number, size: number, first = 1): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let from = first; from <= count; from += size) out.push([from, Math.min(count, from + size - 1)]);
  return out;
}

/** Users `first` … `count` as `UserService.create` writes them (active, no roles, lower-cased login name), created over three years. */
export async function generateUsers(url: string, tenantId: string, first: number, count: number): Promise<void> {
  await withClient(url, (db) =>
    withIndexesRebuilt(db, url, 'users', async () => {
      const chunk = 500_000;
      for (let from = first; from <= count; from += chunk) {
        await db.query(
          `INSERT INTO users (tenant_id, username, username_normalized, email, display_name, status, created_at, updated_at)
           SELECT $1, 'User' || i, 'user' || i, 'user' || i || '@example.com', 'Person ' || i, 'active', t, t
             FROM generate_series($2::int, $3::int) AS i,
                  LATERAL (SELECT now() - make_interval(secs => ($4::int - i) * (94608000.0 / $4::int))) AS at(t)`,
          [tenantId, from, Math.min(count, from + chunk - 1), count],
        );
      }
    }),
  );
}

/** The audit actions generated, with how the API names their targets. */
const ACTIONS = [
  ['user.created', 'user'],
  ['user.updated', 'user'],
  ['user.disabled', 'user'],
  ['client.created', 'client'],
  ['client.secret.created', 'client'],
  ['client.scopes.set', 'client'],
  ['invitation.created', 'invitation'],
  ['invitation.expired', 'invitation'],
] as const;

/**
 * `count` audit events over the last 365 days, as `AuditService.record` writes them: 1,000 staff
 * actors (a person and their CLI client: `actor_id` the person, `actor_client_id` the client), eight
 * actions, targets among `targets` user ids.
 */
export async function generateAuditEvents(
  url: string,
  tenantId: string,
  count: number,
  actors: string[],
): Promise<void> {
  await withClient(url, (db) =>
    withIndexesRebuilt(db, url, 'audit_events', async () => {
      await inParallel(url, ranges(count, 500_000), async (writer, [from, to]) => {
        await writer.query(
          `INSERT INTO audit_events (tenant_id, occurred_at, actor_type, actor_id, actor_client_id, action, target_type, target_id, details, request_id)
           SELECT $1, now() - make_interval(secs => ($4::int - i) * (31536000.0 / $4::int)),
                  'user', actors[1 + i % cardinality(actors)], md5('cli' || actors[1 + i % cardinality(actors)])::uuid::text,
                  actions[1 + (i / 7) % 8], targets[1 + (i / 7) % 8], md5('target' || (i % 200000))::uuid::text,
                  '{}'::jsonb, md5('req' || i)::uuid::text
             FROM generate_series($2::int, $3::int) AS i,
                  (SELECT $5::text[] AS actors, $6::text[] AS actions, $7::text[] AS targets) AS c`,
          [tenantId, from, to, count, actors, ACTIONS.map((a) => a[0]), ACTIONS.map((a) => a[1])],
        );
      });
    }),
  );
}

/**
 * `count` pending invitations (one per user, round-robin over `users`), `overdue` of them an hour
 * past their expiry, with a 32-byte token hash as the API stores one.
 */
export async function generateInvitations(
  url: string,
  tenantId: string,
  count: number,
  overdue: number,
): Promise<void> {
  await withClient(url, (db) =>
    withIndexesRebuilt(db, url, 'invitations', async () => {
      await db.query('TRUNCATE invitations CASCADE'); // the earlier sweep's rows: the check counts the whole table
      await db.query(`UPDATE invitation_sweep_position SET expires_at = '-infinity', invitation_id = '00000000-0000-0000-0000-000000000000'`);
      const { rows } = await db.query<{ ids: string[] }>(
        `SELECT array_agg(id) AS ids FROM (SELECT id FROM users WHERE tenant_id = $1 ORDER BY id LIMIT 100000) u`,
        [tenantId],
      );
      const ids = rows[0]!.ids;
      await inParallel(url, ranges(count, 500_000), async (writer, [from, to]) => {
        await writer.query(
          `INSERT INTO invitations (tenant_id, user_id, section_slugs, token_hash, status, expires_at, created_at, updated_at, link_sent_at)
           SELECT $1, ids[1 + i % cardinality(ids)], ARRAY['getting-started'], sha256(('scale-invitation-' || i)::bytea), 'pending',
                  CASE WHEN i <= $5 THEN now() - interval '1 hour' ELSE now() + interval '7 days' END,
                  now() - interval '7 days', now() - interval '7 days', now() - interval '7 days'
             FROM generate_series($2::int, $3::int) AS i, (SELECT $4::uuid[] AS ids) AS u`,
          [tenantId, from, to, ids, overdue],
        );
      });
    }),
  );
}
