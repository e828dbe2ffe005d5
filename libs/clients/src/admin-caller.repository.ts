import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource } from 'typeorm';
import type { Role, UserStatus } from '@gatehouse/accounts';
import { ADMIN_API_IDENTIFIER } from '@gatehouse/apis';
import type { ClientState } from './api-client.entity.js';

/** What the admin API's guard checks of a caller, read as it is now. */
export interface AdminCaller {
  /** The tenant's built-in admin API's app id: the audience its tokens must carry. */
  adminAppId: string;
  /** The client named by the token's `client_id`, when the tenant has it. */
  client: { id: string; state: ClientState } | null;
  /** That client's owner, when it has one. */
  owner: { id: string; status: UserStatus; roles: Role[] } | null;
}

interface CallerRow {
  admin_app_id: string;
  client_uuid: string | null;
  client_state: ClientState | null;
  owner_id: string | null;
  owner_status: UserStatus | null;
  owner_roles: Role[] | null;
}

/**
 * The admin API's audience, the calling client and its owner in one statement: the guard reads
 * these on every request, and three entity lookups were three round trips and most of a cheap
 * request's cost (BENCHMARKS.md, "The admin API's fixed cost").
 */
@Injectable()
export class AdminCallerRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** `null` when the tenant has no admin API (or the tenant id is not a UUID). */
  async find(tenantId: string, clientId: string): Promise<AdminCaller | null> {
    if (!isUUID(tenantId)) return null;
    const rows: CallerRow[] = await this.dataSource.query(
      `SELECT a.app_id AS admin_app_id, c.id AS client_uuid, c.state AS client_state,
              u.id AS owner_id, u.status AS owner_status, u.roles AS owner_roles
         FROM apis a
         LEFT JOIN api_clients c ON c.tenant_id = a.tenant_id AND c.client_id = $3::uuid
         LEFT JOIN users u ON u.tenant_id = c.tenant_id AND u.id = c.owner_user_id
        WHERE a.tenant_id = $1 AND a.identifier = $2`,
      [tenantId, ADMIN_API_IDENTIFIER, isUUID(clientId) ? clientId : null],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      adminAppId: row.admin_app_id,
      client: row.client_uuid ? { id: row.client_uuid, state: row.client_state! } : null,
      owner: row.owner_id ? { id: row.owner_id, status: row.owner_status!, roles: row.owner_roles ?? [] } : null,
    };
  }
}
