import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Role, UserStatus } from '@gatehouse/accounts';
import type { ClientState } from '@gatehouse/clients';
import { type FailureCount, FailureWindows } from '@gatehouse/database';

export interface ClientRow {
  id: string;
  clientId: string;
  state: ClientState;
  ownerUserId: string | null;
  ownerStatus: UserStatus | null;
  ownerRoles: Role[];
}

export interface SecretRow {
  hash: Buffer;
  expiresAt: Date;
}

/** Everything the token endpoint needs to know about one client, read in one round trip. */
export interface ClientSnapshot {
  client: ClientRow;
  /** Secrets not revoked (expired ones included, so that an expired secret is told apart). */
  secrets: SecretRow[];
  /** Granted scope values by API id (never the admin API's: those come from the owner's roles). */
  grants: Map<string, string[]>;
  blockedUntil: Date | null;
}

export interface ApiRow {
  id: string;
  appId: string;
  identifier: string;
  builtIn: boolean;
  scopes: string[];
}

export type ThrottleResult = FailureCount;

const THROTTLES = new FailureWindows('client_auth_throttles', 'client_id');

interface SnapshotRecord {
  id: string;
  client_id: string;
  state: ClientState;
  owner_user_id: string | null;
  owner_status: UserStatus | null;
  owner_roles: Role[] | null;
  blocked_until: Date | null;
  secrets: Array<{ hash: string; expiresAt: string }>;
  grants: Array<{ apiId: string; value: string }>;
}

const SNAPSHOT_SQL = `
SELECT c.id, c.client_id, c.state, c.owner_user_id, u.status AS owner_status, u.roles AS owner_roles,
       (SELECT t.blocked_until FROM client_auth_throttles t
         WHERE t.tenant_id = c.tenant_id AND t.client_id = c.client_id::text) AS blocked_until,
       COALESCE((SELECT json_agg(json_build_object('hash', encode(s.secret_hash, 'base64'), 'expiresAt', s.expires_at))
                   FROM client_secrets s
                  WHERE s.tenant_id = c.tenant_id AND s.api_client_id = c.id AND s.revoked_at IS NULL), '[]') AS secrets,
       COALESCE((SELECT json_agg(json_build_object('apiId', sc.api_id, 'value', sc.value) ORDER BY sc.value)
                   FROM client_scope_grants g JOIN api_scopes sc ON sc.id = g.scope_id
                  WHERE g.tenant_id = c.tenant_id AND g.api_client_id = c.id), '[]') AS grants
  FROM api_clients c LEFT JOIN users u ON u.id = c.owner_user_id AND u.tenant_id = c.tenant_id
 WHERE c.tenant_id = $1 AND c.client_id = $2`;

/** Read-only queries of the token endpoint, plus the one atomic failure counter. */
@Injectable()
export class ClientCredentialsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The client with its owner, usable secrets, grants and throttle state, or null. `clientId` is a lower-case UUID. */
  async findSnapshot(tenantId: string, clientId: string): Promise<ClientSnapshot | null> {
    const rows: SnapshotRecord[] = await this.dataSource.query(SNAPSHOT_SQL, [tenantId, clientId]);
    const row = rows[0];
    if (!row) return null;
    const grants = new Map<string, string[]>();
    for (const grant of row.grants) grants.set(grant.apiId, [...(grants.get(grant.apiId) ?? []), grant.value]);
    return {
      client: {
        id: row.id,
        clientId: row.client_id,
        state: row.state,
        ownerUserId: row.owner_user_id ?? null,
        ownerStatus: row.owner_status ?? null,
        ownerRoles: row.owner_roles ?? [],
      },
      secrets: row.secrets.map((s) => ({ hash: Buffer.from(s.hash, 'base64'), expiresAt: new Date(s.expiresAt) })),
      grants,
      blockedUntil: row.blocked_until ? new Date(row.blocked_until) : null,
    };
  }

  /** An API by identifier URI or by app id, with its scope values. */
  async findApi(tenantId: string, resource: { identifier?: string; appId?: string }): Promise<ApiRow | null> {
    const rows: Array<{ id: string; app_id: string; identifier: string; built_in: boolean; scopes: string[] | null }> =
      await this.dataSource.query(
        `SELECT a.id, a.app_id, a.identifier, a.built_in,
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
    };
  }

  /** Counts one failed authentication (see {@link FailureWindows.record}). */
  recordFailure(tenantId: string, clientId: string, windowSeconds: number, limit: number): Promise<ThrottleResult> {
    return THROTTLES.record(this.dataSource, tenantId, clientId, windowSeconds, limit);
  }

  /** Drops throttle rows whose window and block are over (unknown client ids pile up otherwise). */
  purgeStaleThrottles(windowSeconds: number): Promise<number> {
    return THROTTLES.purgeStale(this.dataSource, windowSeconds);
  }
}
