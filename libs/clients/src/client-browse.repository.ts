import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type TextSort, textKeyset } from '@gatehouse/database';
import type { ClientState } from './api-client.entity.js';

/** Where a browse continues: a client's creation time (as Postgres prints it, full precision) and id. */
export interface BrowsePosition {
  at: string;
  id: string;
}

export interface ClientBrowseQuery {
  search?: string;
  state?: ClientState;
  /** Clients granted at least one scope of this API (its id). */
  apiId?: string;
  /** Enabled clients with a secret that expires within 30 days (or has expired) and is not revoked: the Overview's queue. */
  expiringSecrets?: boolean;
  /** Enabled clients whose last handover expired without being revealed: the Overview's queue. */
  expiredHandovers?: boolean;
  /** Newest first: rows older than `older`, or (read upwards) newer than `newer`. */
  older?: BrowsePosition;
  newer?: BrowsePosition;
  /** By name or state instead of newest first; `older`/`newer` then hold that column's value as `at`. */
  sort?: TextSort;
  take: number;
}

/** The columns the list sorts by besides its age, by their names in the URL. */
export const CLIENT_SORT_COLUMNS = { name: 'c.display_name', state: 'c.state' } as const;
export type ClientSort = keyof typeof CLIENT_SORT_COLUMNS;

export interface ClientBrowseRow {
  id: string;
  clientId: string;
  displayName: string;
  state: ClientState;
  contactEmail: string | null;
  ownerUserId: string | null;
  position: string;
  soonestSecretExpiry: Date | null;
}

const LIKE_SPECIAL = /[\\%_]/g;

/** The console's list of clients: newest first, filtered, keyset-paged on (created_at, id). */
@Injectable()
export class ClientBrowseRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  browse(tenantId: string, query: ClientBrowseQuery): Promise<ClientBrowseRow[]> {
    const params: unknown[] = [tenantId];
    const where = ['c.tenant_id = $1'];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (query.state) where.push(`c.state = ${param(query.state)}`);
    if (query.search) {
      const like = param(`%${query.search.replace(LIKE_SPECIAL, (ch) => `\\${ch}`)}%`);
      where.push(
        `(c.display_name ILIKE ${like} OR c.contact_email ILIKE ${like} OR c.client_id::text = ${param(query.search.toLowerCase())})`,
      );
    }
    if (query.apiId) {
      where.push(`EXISTS (SELECT 1 FROM client_scope_grants g JOIN api_scopes s ON s.id = g.scope_id
                          WHERE g.api_client_id = c.id AND s.api_id = ${param(query.apiId)})`);
    }
    if (query.expiringSecrets) {
      where.push(`c.state <> 'disabled' AND EXISTS (SELECT 1 FROM client_secrets x WHERE x.api_client_id = c.id
                          AND x.revoked_at IS NULL AND x.expires_at < now() + interval '30 days')`);
    }
    if (query.expiredHandovers) {
      where.push(`c.state <> 'disabled' AND EXISTS (SELECT 1 FROM credential_handovers h WHERE h.api_client_id = c.id
                          AND (h.status = 'expired' OR (h.status = 'pending' AND h.expires_at <= now()))
                          AND NOT EXISTS (SELECT 1 FROM credential_handovers n
                                           WHERE n.api_client_id = c.id AND n.created_at > h.created_at))`);
    }
    const upwards = query.newer !== undefined;
    const from = query.newer ?? query.older;
    let orderBy: string;
    let position = 'c.created_at::text';
    if (query.sort) {
      const column = CLIENT_SORT_COLUMNS[query.sort.by as ClientSort];
      const keyset = textKeyset(column, 'c.id', query.sort, upwards, from ? param(from.at) : '', from ? `${param(from.id)}::uuid` : '');
      if (from) where.push(keyset.condition);
      orderBy = `${column} ${keyset.direction}, c.id ${keyset.direction}`;
      position = `${column}::text`;
    } else {
      if (from) where.push(`(c.created_at, c.id) ${upwards ? '>' : '<'} (${param(from.at)}::timestamptz, ${param(from.id)}::uuid)`);
      const order = upwards ? 'ASC' : 'DESC';
      orderBy = `c.created_at ${order}, c.id ${order}`;
    }
    return this.dataSource.query(
      `SELECT c.id, c.client_id AS "clientId", c.display_name AS "displayName", c.state, c.contact_email AS "contactEmail",
              c.owner_user_id AS "ownerUserId", ${position} AS position,
              (SELECT min(x.expires_at) FROM client_secrets x WHERE x.api_client_id = c.id AND x.revoked_at IS NULL) AS "soonestSecretExpiry"
         FROM api_clients c
        WHERE ${where.join(' AND ')}
        ORDER BY ${orderBy}
        LIMIT ${param(query.take)}`,
      params,
    );
  }
}
