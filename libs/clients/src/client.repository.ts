import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager, In } from 'typeorm';
import { type CursorPosition, keysetCondition, keysetKey } from '@gatehouse/database';
import { ApiClient, type ClientState } from './api-client.entity.js';
import { ClientScopeGrant } from './client-scope-grant.entity.js';
import { ClientSecret } from './client-secret.entity.js';

export interface ClientQuery {
  state?: ClientState;
  ownerUserId?: string;
  after?: CursorPosition;
  take: number;
}

/** A grant with its times (least privilege). */
export interface GrantUse {
  scope: string;
  grantedAt: Date;
  lastUsedAt: Date | null;
}

/** A granted scope as a token request names it: `{identifier}/{value}`. */
export interface GrantedScope {
  apiClientId: string;
  scope: string;
}

@Injectable()
export class ClientRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }

  insert(em: EntityManager, client: Partial<ApiClient>): Promise<ApiClient> {
    return em.getRepository(ApiClient).save(em.getRepository(ApiClient).create(client));
  }

  save(em: EntityManager, client: ApiClient): Promise<ApiClient> {
    return em.getRepository(ApiClient).save(client);
  }

  async findByClientId(tenantId: string, clientId: string, em?: EntityManager, lock = false): Promise<ApiClient | null> {
    if (!isUUID(clientId)) return null;
    return this.manager(em)
      .getRepository(ApiClient)
      .findOne({ where: { tenantId, clientId }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  page(tenantId: string, query: ClientQuery): Promise<ApiClient[]> {
    const qb = this.dataSource.getRepository(ApiClient).createQueryBuilder('c').where('c.tenant_id = :tenantId', { tenantId });
    if (query.state) qb.andWhere('c.state = :state', { state: query.state });
    if (query.ownerUserId) qb.andWhere('c.owner_user_id = :owner', { owner: query.ownerUserId });
    if (query.after) {
      qb.andWhere(keysetCondition('c.created_at', 'c.id', '>'), { at: query.after.at, id: query.after.id });
    }
    return qb.orderBy(keysetKey('c.created_at')).addOrderBy('c.id').take(query.take).getMany();
  }

  async grantedScopes(apiClientIds: string[], em?: EntityManager): Promise<GrantedScope[]> {
    if (apiClientIds.length === 0) return [];
    const rows: Array<{ api_client_id: string; scope: string }> = await this.manager(em).query(
      `SELECT g.api_client_id, a.identifier || '/' || s.value AS scope
         FROM client_scope_grants g
         JOIN api_scopes s ON s.id = g.scope_id
         JOIN apis a ON a.id = s.api_id
        WHERE g.api_client_id = ANY($1::uuid[])
        ORDER BY a.identifier, s.value`,
      [apiClientIds],
    );
    return rows.map((row) => ({ apiClientId: row.api_client_id, scope: row.scope }));
  }

  /** The client's grants with when each was made and last carried by a token, by scope name. */
  async grantUses(apiClientId: string, em?: EntityManager): Promise<GrantUse[]> {
    const rows: Array<{ scope: string; created_at: Date; last_used_at: Date | null }> = await this.manager(em).query(
      `SELECT a.identifier || '/' || s.value AS scope, g.created_at, g.last_used_at
         FROM client_scope_grants g
         JOIN api_scopes s ON s.id = g.scope_id
         JOIN apis a ON a.id = s.api_id
        WHERE g.api_client_id = $1
        ORDER BY a.identifier, s.value`,
      [apiClientId],
    );
    return rows.map((row) => ({ scope: row.scope, grantedAt: row.created_at, lastUsedAt: row.last_used_at }));
  }

  /**
   * Makes the client's grants exactly these: removed ones deleted, new ones inserted, the ones kept
   * untouched (their grant time and last use stay).
   */
  async replaceGrants(em: EntityManager, client: ApiClient, scopeIds: string[]): Promise<void> {
    await em.query(`DELETE FROM client_scope_grants WHERE api_client_id = $1 AND NOT (scope_id = ANY($2::uuid[]))`, [
      client.id,
      scopeIds,
    ]);
    if (scopeIds.length === 0) return;
    await em.query(
      `INSERT INTO client_scope_grants (api_client_id, scope_id, tenant_id)
       SELECT $1, unnest($2::uuid[]), $3 ON CONFLICT DO NOTHING`,
      [client.id, scopeIds, client.tenantId],
    );
  }

  async countGrants(apiClientId: string, em?: EntityManager): Promise<number> {
    return this.manager(em).getRepository(ClientScopeGrant).countBy({ apiClientId });
  }

  insertSecret(em: EntityManager, secret: Partial<ClientSecret>): Promise<ClientSecret> {
    return em.getRepository(ClientSecret).save(em.getRepository(ClientSecret).create(secret));
  }

  secretsOf(apiClientId: string): Promise<ClientSecret[]> {
    return this.dataSource.getRepository(ClientSecret).find({ where: { apiClientId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async findSecret(em: EntityManager, apiClientId: string, keyId: string): Promise<ClientSecret | null> {
    if (!isUUID(keyId)) return null;
    return em.getRepository(ClientSecret).findOne({ where: { apiClientId, keyId }, lock: { mode: 'pessimistic_write' } });
  }

  async markRevoked(em: EntityManager, secret: ClientSecret, at: Date): Promise<void> {
    await em.getRepository(ClientSecret).update({ id: secret.id }, { revokedAt: at });
  }

  clientsOwnedBy(tenantId: string, ownerUserIds: string[], em?: EntityManager): Promise<ApiClient[]> {
    return this.manager(em)
      .getRepository(ApiClient)
      .find({ where: { tenantId, ownerUserId: In(ownerUserIds) }, order: { createdAt: 'ASC' } });
  }
}
