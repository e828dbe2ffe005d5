import { type KeyObject, X509Certificate } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Role, UserStatus } from '@gatehouse/accounts';
import type { ClientState } from '@gatehouse/clients';
import { type FailureCount, FailureWindows, RoundTripBatcher, poolOf } from '@gatehouse/database';
import { type ClientLimits, clientLimitsOf } from './limits/client-limits.js';

export interface ClientRow {
  id: string;
  clientId: string;
  state: ClientState;
  ownerUserId: string | null;
  ownerStatus: UserStatus | null;
  ownerRoles: Role[];
}

export interface SecretRow {
  /**
   * The stored HMAC as a one-byte string (latin1, one character per byte): ≈ 50 bytes of heap
   * where a Buffer of its own costs ≈ 250 (the object, its ArrayBuffer and the native store).
   */
  hash: string;
  /** Epoch milliseconds. */
  expiresAtMs: number;
}

/** A registered certificate, with its public key ready to verify client assertions. */
export interface CertificateRow {
  keyId: string;
  /** SHA-1 upper-case hex (Entra's thumbprint). */
  thumbprint: string;
  x5t: string;
  x5tS256: string;
  notBefore: Date;
  notAfter: Date;
  key: KeyObject;
}

/** Everything the token endpoint needs to know about one client, read in one round trip. */
export interface ClientSnapshot {
  client: ClientRow;
  /** Secrets not revoked nor disabled as stale (expired ones included, so that an expired secret is told apart). */
  secrets: SecretRow[];
  /** Certificates registered for client assertions, but those disabled as stale (expired ones included, told apart at use). */
  certificates: CertificateRow[];
  /**
   * Granted scope values by API id, each list sorted (never the admin API's: those come from the
   * owner's roles). Read only: a `.default` token carries the list itself.
   */
  grants: Map<string, readonly string[]>;
  /** Its network restriction and token quota, parsed once here; null (most clients): none. */
  limits: ClientLimits | null;
}

export interface ApiRow {
  id: string;
  appId: string;
  identifier: string;
  builtIn: boolean;
  scopes: string[];
  /** 1: Entra v1 claims; 2: v2 (the default). */
  accessTokenVersion: 1 | 2;
  /** The `typ` header of its tokens. */
  accessTokenTyp: 'JWT' | 'at+jwt';
  /** The built-in resource `api://AzureADTokenExchange` (no row, no scopes; see token-exchange-resource.ts). */
  tokenExchange?: true;
}

export type ThrottleResult = FailureCount;

const CLIENT_FAILURES = new FailureWindows('client_auth_throttles', 'client_id');
const SOURCE_COUNTERS = new FailureWindows('source_throttles', 'source');

interface SnapshotRecord {
  tenant_id: string;
  id: string;
  client_id: string;
  state: ClientState;
  owner_user_id: string | null;
  owner_status: UserStatus | null;
  owner_roles: Role[] | null;
  secrets: Array<{ hash: string; expiresAt: string }>;
  certificates: Array<
    Omit<CertificateRow, 'key' | 'notBefore' | 'notAfter'> & { der: string; notBefore: string; notAfter: string }
  >;
  grants: Array<{ apiId: string; value: string }>;
  allowed_source_ranges: string[] | null;
  tokens_per_hour: number | null;
}

/**
 * The snapshots of many clients at once, by (tenant id, client id) pairs: a prepared statement
 * (the unnamed form was planned again for each client, ≈ 1,900 a second here against ≈ 7,500
 * prepared and 30,000–45,000 in batches of 50–200). The arrays are read through sub-selects so that
 * it is planned once per connection indeed: given `unnest($1)` itself, PostgreSQL's custom plans
 * see each batch's length (one to a few clients), look cheaper than the generic plan (which
 * assumes ten), and so every execution was planned again — 727 µs of PostgreSQL's CPU for a
 * one-client statement at a million clients, 191 µs planned once (BENCHMARKS.md).
 */
export const CLIENT_SNAPSHOTS_SQL = `
SELECT c.tenant_id, c.id, c.client_id, c.state, c.owner_user_id, u.status AS owner_status, u.roles AS owner_roles,
       c.allowed_source_ranges, c.tokens_per_hour,
       COALESCE((SELECT json_agg(json_build_object('keyId', k.key_id, 'thumbprint', k.thumbprint, 'x5t', k.x5t,
                        'x5tS256', k.x5t_s256, 'notBefore', k.not_before, 'notAfter', k.not_after,
                        'der', encode(k.certificate_der, 'base64')))
                   FROM client_certificates k
                  WHERE k.tenant_id = c.tenant_id AND k.api_client_id = c.id AND k.disabled_at IS NULL), '[]') AS certificates,
       COALESCE((SELECT json_agg(json_build_object('hash', encode(s.secret_hash, 'base64'), 'expiresAt', s.expires_at))
                   FROM client_secrets s
                  WHERE s.tenant_id = c.tenant_id AND s.api_client_id = c.id AND s.revoked_at IS NULL AND s.disabled_at IS NULL), '[]') AS secrets,
       COALESCE((SELECT json_agg(json_build_object('apiId', sc.api_id, 'value', sc.value) ORDER BY sc.value)
                   FROM client_scope_grants g JOIN api_scopes sc ON sc.id = g.scope_id
                  WHERE g.tenant_id = c.tenant_id AND g.api_client_id = c.id), '[]') AS grants
  FROM unnest((SELECT $1::uuid[]), (SELECT $2::uuid[])) AS wanted(tenant_id, client_id)
  JOIN api_clients c ON c.tenant_id = wanted.tenant_id AND c.client_id = wanted.client_id
  LEFT JOIN users u ON u.id = c.owner_user_id AND u.tenant_id = c.tenant_id`;

/**
 * Snapshot reads in flight at once; misses arriving meanwhile wait and go together in the next one.
 * One: since the statement is planned once a round trip takes ≈ 0.3 ms, and with two in flight
 * batches were half as large, each costing the replica its per-statement work again — at a
 * million clients and half the peak, one gave 376 µs of CPU a miss and a p99 of 47 ms, two
 * 427 µs and 133 ms (BENCHMARKS.md).
 */
const SNAPSHOT_READS_IN_FLIGHT = 1;

/** Read-only queries of the token endpoint, plus the atomic failure counters. */
@Injectable()
export class ClientCredentialsRepository {
  private readonly snapshots = new RoundTripBatcher<{ tenantId: string; clientId: string }, ClientSnapshot | null>(
    (wanted) => this.readSnapshots(wanted),
    { maxInFlight: SNAPSHOT_READS_IN_FLIGHT, maxBatch: 500 },
  );

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The client with its owner, usable secrets, certificates and grants, or null. `clientId` is a
   * lower-case UUID. Reads of many clients at once (a cold cache under load) share round trips.
   */
  findSnapshot(tenantId: string, clientId: string): Promise<ClientSnapshot | null> {
    return this.snapshots.submit({ tenantId, clientId });
  }

  /**
   * Up to `limit` active clients of every tenant, the most recently changed first (the start-up
   * preload's choice): the replica's own read across tenants, whose results are cached per tenant
   * and reach no caller directly.
   */
  async recentActiveClients(limit: number): Promise<Array<{ tenantId: string; clientId: string }>> {
    const { rows } = await poolOf(this.dataSource).query<{ tenant_id: string; client_id: string }>(
      `SELECT tenant_id, client_id FROM api_clients WHERE state = 'active' ORDER BY updated_at DESC LIMIT $1`,
      [limit],
    );
    // One string a tenant, not one a cached client.
    return rows.map((row) => ({ tenantId: intern(row.tenant_id), clientId: row.client_id }));
  }

  /** The snapshots of many clients in one round trip (null for a pair that names no client), in order. */
  async readSnapshots(wanted: Array<{ tenantId: string; clientId: string }>): Promise<Array<ClientSnapshot | null>> {
    const { rows } = await poolOf(this.dataSource).query<SnapshotRecord>({
      name: 'gatehouse-client-snapshots',
      text: CLIENT_SNAPSHOTS_SQL,
      values: [wanted.map((w) => w.tenantId), wanted.map((w) => w.clientId)],
    });
    const found = new Map(rows.map((row) => [`${row.tenant_id}|${row.client_id}`, row]));
    return wanted.map((w) => {
      const row = found.get(`${w.tenantId}|${w.clientId}`);
      return row ? snapshotOf(row) : null;
    });
  }

  /** An API by identifier URI or by app id, with its scope values. */
  async findApi(tenantId: string, resource: { identifier?: string; appId?: string }): Promise<ApiRow | null> {
    const rows: Array<{
      id: string;
      app_id: string;
      identifier: string;
      built_in: boolean;
      access_token_version: number;
      access_token_typ: string;
      scopes: string[] | null;
    }> = await this.dataSource.query(
      `SELECT a.id, a.app_id, a.identifier, a.built_in, a.access_token_version, a.access_token_typ,
                ARRAY(SELECT s.value FROM api_scopes s WHERE s.api_id = a.id ORDER BY s.value) AS scopes
           FROM apis a WHERE a.tenant_id = $1 AND (a.identifier = $2 OR a.app_id::text = $3)
          ORDER BY (a.identifier = $2) DESC NULLS LAST LIMIT 1`,
      [tenantId, resource.identifier ?? null, resource.appId ?? null],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      appId: row.app_id,
      identifier: row.identifier,
      builtIn: row.built_in,
      scopes: row.scopes ?? [],
      accessTokenVersion: row.access_token_version === 1 ? 1 : 2,
      accessTokenTyp: row.access_token_typ === 'at+jwt' ? 'at+jwt' : 'JWT',
    };
  }

  /** Counts one failed authentication of a known client (see {@link FailureWindows.record}). */
  recordClientFailure(
    tenantId: string,
    clientId: string,
    windowSeconds: number,
    limit: number,
  ): Promise<ThrottleResult> {
    return CLIENT_FAILURES.record(this.dataSource, tenantId, clientId, windowSeconds, limit);
  }

  /** Counts one event of a source (`token:<address>`, `leak-report:<address>`). */
  recordSourceEvent(tenantId: string, source: string, windowSeconds: number, limit: number): Promise<ThrottleResult> {
    return SOURCE_COUNTERS.record(this.dataSource, tenantId, source, windowSeconds, limit);
  }

  /** Drops counters whose window and block are over (sources and client ids pile up otherwise). */
  async purgeStaleThrottles(windowSeconds: number): Promise<number> {
    return (
      (await CLIENT_FAILURES.purgeStale(this.dataSource, windowSeconds)) +
      (await SOURCE_COUNTERS.purgeStale(this.dataSource, windowSeconds))
    );
  }
}

/** A snapshot from its row; strings and grant maps that repeat across clients are shared. */
function snapshotOf(row: SnapshotRecord): ClientSnapshot {
  return {
    client: {
      id: row.id,
      clientId: row.client_id,
      state: intern(row.state) as ClientState,
      ownerUserId: row.owner_user_id ?? null,
      ownerStatus: row.owner_status ?? null,
      ownerRoles: row.owner_roles?.length ? row.owner_roles : NONE,
    },
    secrets: row.secrets.map((s) => ({
      // The decoded Buffer is not kept: it is a slice of Node's shared 8 KB pool, and one kept
      // slice would keep its whole slab alive.
      hash: Buffer.from(s.hash, 'base64').toString('latin1'),
      expiresAtMs: Date.parse(s.expiresAt),
    })),
    certificates:
      row.certificates.length === 0
        ? NONE
        : row.certificates.map(({ der, ...c }) => ({
            ...c,
            notBefore: new Date(c.notBefore),
            notAfter: new Date(c.notAfter),
            key: new X509Certificate(Buffer.from(der, 'base64')).publicKey,
          })),
    grants: grantsOf(row.grants),
    limits: clientLimitsOf(row.allowed_source_ranges, row.tokens_per_hour),
  };
}

/** API ids and scope values repeat across every client of an API: one string each, not one per client. */
const interned = new Map<string, string>();

function intern(text: string): string {
  const known = interned.get(text);
  if (known !== undefined) return known;
  if (interned.size < 10_000) interned.set(text, text);
  return text;
}

/** Shared by every snapshot without roles or certificates (snapshots are read, never changed). */
export const NONE: never[] = Object.freeze([]) as never[];

/** Grant maps by their content: the clients of an API mostly hold the same scopes, so they share one. */
const sharedGrants = new Map<string, Map<string, readonly string[]>>();

function grantsOf(rows: Array<{ apiId: string; value: string }>): Map<string, readonly string[]> {
  const key = rows.map((g) => `${g.apiId} ${g.value}`).join('\n');
  const known = sharedGrants.get(key);
  if (known) return known;
  const grants = new Map<string, string[]>();
  for (const grant of rows) {
    const apiId = intern(grant.apiId);
    grants.set(apiId, [...(grants.get(apiId) ?? []), intern(grant.value)]);
  }
  for (const values of grants.values()) values.sort();
  if (sharedGrants.size < 10_000 && key.length <= 4_096) sharedGrants.set(key, grants);
  return grants;
}
