import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type CursorPosition, keysetCondition, keysetKey } from '@gatehouse/database';
import { Organisation } from './organisation.entity.js';
import type { OrganisationMembers } from './organisation.view.js';

const MEMBERS_SHOWN = 100;

/** Organisations of one tenant, and what belongs to each (read across contexts by id only). */
@Injectable()
export class OrganisationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(em: EntityManager, row: Partial<Organisation>): Promise<Organisation> {
    const repository = em.getRepository(Organisation);
    return repository.save(repository.create(row));
  }

  find(tenantId: string, id: string, em: EntityManager = this.dataSource.manager): Promise<Organisation | null> {
    return em.getRepository(Organisation).findOne({ where: { tenantId, id } });
  }

  findForUpdate(em: EntityManager, tenantId: string, id: string): Promise<Organisation | null> {
    return em
      .getRepository(Organisation)
      .createQueryBuilder('o')
      .where('o.tenant_id = :tenantId AND o.id = :id', { tenantId, id })
      .setLock('pessimistic_write')
      .getOne();
  }

  findByName(em: EntityManager, tenantId: string, nameNormalized: string): Promise<Organisation | null> {
    return em.getRepository(Organisation).findOne({ where: { tenantId, nameNormalized } });
  }

  async update(em: EntityManager, id: string, changes: Partial<Organisation>): Promise<void> {
    await em.getRepository(Organisation).update({ id }, changes);
  }

  /** Newest first, one keyset page (`take` rows); `search` matches anywhere in the name, any case. */
  list(tenantId: string, filter: { search?: string; state?: string }, after: CursorPosition | undefined, take: number): Promise<Organisation[]> {
    const qb = this.dataSource.getRepository(Organisation).createQueryBuilder('o').where('o.tenant_id = :tenantId', { tenantId });
    if (filter.search) qb.andWhere('position(:search in o.name_normalized) > 0', { search: filter.search.toLowerCase() });
    if (filter.state) qb.andWhere('o.state = :state', { state: filter.state });
    if (after) qb.andWhere(keysetCondition('o.created_at', 'o.id', '<'), { at: after.at, id: after.id });
    return qb.orderBy(keysetKey('o.created_at'), 'DESC').addOrderBy('o.id', 'DESC').take(take).getMany();
  }

  /** Names of these organisations, by id (list pages name the organisation of each row). */
  async names(tenantId: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: string; name: string }> = await this.dataSource.query(
      `SELECT id, name FROM organisations WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, [...new Set(ids)]],
    );
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** People, clients, requests and handovers of the organisation: the first 100 of each and the counts. */
  async members(tenantId: string, id: string): Promise<OrganisationMembers> {
    const q = (sql: string) => this.dataSource.query(sql, [tenantId, id, MEMBERS_SHOWN]);
    const [people, clients, requests, handovers, counts] = await Promise.all([
      q(`SELECT id, username, display_name AS "displayName", email, status, roles FROM users
          WHERE tenant_id = $1 AND organisation_id = $2 ORDER BY lower(display_name), id LIMIT $3`),
      q(`SELECT client_id AS "clientId", display_name AS "displayName", state, contact_email AS "contactEmail" FROM api_clients
          WHERE tenant_id = $1 AND organisation_id = $2 ORDER BY lower(display_name), id LIMIT $3`),
      q(`SELECT id, requester_name AS "requesterName", requester_email AS "requesterEmail", status,
                to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
           FROM access_requests WHERE tenant_id = $1 AND organisation_id = $2 ORDER BY created_at DESC, id LIMIT $3`),
      q(`SELECT h.id, c.client_id AS "clientId", c.display_name AS "clientName", h.recipient_email AS "recipientEmail",
                CASE WHEN h.status = 'pending' AND h.expires_at <= now() THEN 'expired' ELSE h.status END AS status,
                to_char(h.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "expiresAt"
           FROM credential_handovers h JOIN api_clients c ON c.id = h.api_client_id
          WHERE c.tenant_id = $1 AND c.organisation_id = $2 ORDER BY h.created_at DESC, h.id LIMIT $3`),
      this.dataSource.query(
        `SELECT (SELECT count(*) FROM users WHERE tenant_id = $1 AND organisation_id = $2)::int AS people,
                (SELECT count(*) FROM api_clients WHERE tenant_id = $1 AND organisation_id = $2)::int AS clients,
                (SELECT count(*) FROM access_requests WHERE tenant_id = $1 AND organisation_id = $2)::int AS requests,
                (SELECT count(*) FROM credential_handovers h JOIN api_clients c ON c.id = h.api_client_id
                  WHERE c.tenant_id = $1 AND c.organisation_id = $2)::int AS handovers`,
        [tenantId, id],
      ) as Promise<Array<OrganisationMembers['counts']>>,
    ]);
    return { people, clients, requests, handovers, counts: counts[0]! };
  }
}
