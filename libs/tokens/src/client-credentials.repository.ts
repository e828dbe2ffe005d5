import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Role, UserStatus } from '@gatehouse/accounts';
import type { ClientState } from '@gatehouse/clients';

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

export interface ApiRow {
  id: string;
  appId: string;
  identifier: string;
  builtIn: boolean;
  scopes: string[];
}

export interface ThrottleResult {
  failures: number;
  blockedUntil: Date | null;
}

/** Read-only queries of the token endpoint, plus the one atomic failure counter. */
@Injectable()
export class ClientCredentialsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findClient(tenantId: string, clientId: string): Promise<ClientRow | null> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT c.id, c.client_id, c.state, c.owner_user_id, u.status AS owner_status, u.roles AS owner_roles
         FROM api_clients c LEFT JOIN users u ON u.id = c.owner_user_id AND u.tenant_id = c.tenant_id
        WHERE c.tenant_id = $1 AND c.client_id = $2`,
      [tenantId, clientId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id as string,
      clientId: row.client_id as string,
      state: row.state as ClientState,
      ownerUserId: (row.owner_user_id as string | null) ?? null,
      ownerStatus: (row.owner_status as UserStatus | null) ?? null,
      ownerRoles: (row.owner_roles as Role[] | null) ?? [],
    };
  }

  /** Secrets not revoked (expired ones included, so that an expired secret is told apart). */
  async findUsableSecrets(tenantId: string, apiClientId: string): Promise<SecretRow[]> {
    const rows: Array<{ secret_hash: Buffer; expires_at: Date }> = await this.dataSource.query(
      `SELECT secret_hash, expires_at FROM client_secrets
        WHERE tenant_id = $1 AND api_client_id = $2 AND revoked_at IS NULL`,
      [tenantId, apiClientId],
    );
    return rows.map((row) => ({ hash: row.secret_hash, expiresAt: new Date(row.expires_at) }));
  }

  /** Granted scope values by API id. */
  async findGrants(tenantId: string, apiClientId: string): Promise<Map<string, string[]>> {
    const rows: Array<{ api_id: string; value: string }> = await this.dataSource.query(
      `SELECT s.api_id, s.value FROM client_scope_grants g JOIN api_scopes s ON s.id = g.scope_id
        WHERE g.tenant_id = $1 AND g.api_client_id = $2 ORDER BY s.value`,
      [tenantId, apiClientId],
    );
    const grants = new Map<string, string[]>();
    for (const row of rows) grants.set(row.api_id, [...(grants.get(row.api_id) ?? []), row.value]);
    return grants;
  }

  async findBlockedUntil(tenantId: string, clientId: string): Promise<Date | null> {
    const rows: Array<{ blocked_until: Date | null }> = await this.dataSource.query(
      `SELECT blocked_until FROM client_auth_throttles WHERE tenant_id = $1 AND client_id = $2`,
      [tenantId, clientId],
    );
    return rows[0]?.blocked_until ? new Date(rows[0].blocked_until) : null;
  }

  /** An API by identifier URI or by app id, with its scope values. */
  async findApi(tenantId: string, resource: { identifier?: string; appId?: string }): Promise<ApiRow | null> {
    const rows: Array<{ id: string; app_id: string; identifier: string; built_in: boolean; scopes: string[] | null }> =
      await this.dataSource.query(
        `SELECT a.id, a.app_id, a.identifier, a.built_in,
                ARRAY(SELECT s.value FROM api_scopes s WHERE s.api_id = a.id ORDER BY s.value) AS scopes
           FROM apis a WHERE a.tenant_id = $1 AND (a.identifier = $2 OR a.app_id::text = $3)`,
        [tenantId, resource.identifier ?? null, resource.appId ?? null],
      );
    const row = rows[0];
    if (!row) return null;
    return { id: row.id, appId: row.app_id, identifier: row.identifier, builtIn: row.built_in, scopes: row.scopes ?? [] };
  }

  /**
   * Counts one failed authentication in ONE atomic upsert, so parallel failures on any number of
   * replicas are counted exactly. The `limit`-th failure of a window blocks the client id until
   * the window ends.
   */
  async recordFailure(tenantId: string, clientId: string, windowSeconds: number, limit: number): Promise<ThrottleResult> {
    const rows: Array<{ failures: number; blocked_until: Date | null }> = await this.dataSource.query(
      `INSERT INTO client_auth_throttles AS t (tenant_id, client_id, failures, window_started_at, blocked_until)
       VALUES ($1, $2, 1, now(), CASE WHEN $4::int <= 1 THEN now() + make_interval(secs => $3) END)
       ON CONFLICT (tenant_id, client_id) DO UPDATE SET
         failures = CASE WHEN t.window_started_at <= now() - make_interval(secs => $3) THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => $3)
                                  THEN now() ELSE t.window_started_at END,
         blocked_until = CASE WHEN t.window_started_at > now() - make_interval(secs => $3) AND t.failures + 1 >= $4
                              THEN t.window_started_at + make_interval(secs => $3) END
       RETURNING failures, blocked_until`,
      [tenantId, clientId, windowSeconds, limit],
    );
    const row = rows[0]!;
    return { failures: row.failures, blockedUntil: row.blocked_until ? new Date(row.blocked_until) : null };
  }
}
