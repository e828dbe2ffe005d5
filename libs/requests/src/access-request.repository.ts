import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import { type CursorPosition, type FailureCount, FailureWindows, type TextPosition, type TextSort, textKeyset } from '@gatehouse/database';
import { AccessRequest, type AccessRequestStatus } from './access-request.entity.js';

/** The columns the list sorts by besides its age, by their names in the URL. */
export const REQUEST_SORT_COLUMNS = { requester: 'r.requester_name', organisation: 'r.organisation' } as const;
export type RequestSort = keyof typeof REQUEST_SORT_COLUMNS;

export interface AccessRequestQuery {
  status?: AccessRequestStatus;
  /** Part of the requester's name or address, the organisation or the system's name (any case). */
  search?: string;
  after?: CursorPosition;
  /** Sorted by a text column instead of age: its order and the position to continue from. */
  sort?: TextSort;
  afterKey?: TextPosition;
  /** From the position towards the start of the order, nearest first (a page before a cursor). */
  backward?: boolean;
  take: number;
}

const SOURCE_THROTTLES = new FailureWindows('access_request_throttles', 'source');

/** Queries of access requests, their per-source throttle and the staff they are mailed to. */
@Injectable()
export class AccessRequestRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }

  insert(em: EntityManager, request: Partial<AccessRequest>): Promise<AccessRequest> {
    return em.getRepository(AccessRequest).save(em.getRepository(AccessRequest).create(request));
  }

  save(em: EntityManager, request: AccessRequest): Promise<AccessRequest> {
    return em.getRepository(AccessRequest).save(request);
  }

  /** With the created client (for its public id); `lock` takes the row alone, FOR UPDATE. */
  findById(tenantId: string, id: string, em?: EntityManager, lock = false): Promise<AccessRequest | null> {
    if (!isUUID(id)) return Promise.resolve(null);
    const repository = this.manager(em).getRepository(AccessRequest);
    if (lock) return repository.findOne({ where: { tenantId, id }, lock: { mode: 'pessimistic_write' } });
    return repository.findOne({ where: { tenantId, id }, relations: { apiClient: true } });
  }

  findByClient(tenantId: string, apiClientId: string): Promise<AccessRequest | null> {
    return this.manager().getRepository(AccessRequest).findOne({ where: { tenantId, apiClientId }, relations: { apiClient: true } });
  }

  findByConfirmToken(tenantId: string, tokenHash: Buffer, em?: EntityManager): Promise<AccessRequest | null> {
    return this.manager(em).getRepository(AccessRequest).findOneBy({ tenantId, confirmTokenHash: tokenHash });
  }

  /** The single-use step: only an unverified, unexpired request flips to submitted. */
  async confirm(em: EntityManager, tenantId: string, tokenHash: Buffer): Promise<string | null> {
    const rows: Array<{ id: string }> = await em.query(
      `WITH c AS (UPDATE access_requests SET status = 'submitted', confirmed_at = now(), updated_at = now()
                   WHERE tenant_id = $1 AND confirm_token_hash = $2 AND status = 'unverified' AND confirm_expires_at > now()
                   RETURNING id)
       SELECT id FROM c`,
      [tenantId, tokenHash],
    );
    return rows[0]?.id ?? null;
  }

  /** Serialises requests for one address until the transaction ends (the open-request limit). */
  async lockAddress(em: EntityManager, tenantId: string, emailNormalized: string): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtext('gatehouse.access-request:' || $1 || ':' || $2))`, [
      tenantId,
      emailNormalized,
    ]);
  }

  /** Requests of an address still open: unverified within their 24 hours, or waiting for a decision. */
  /** An unconfirmed request with these very fields made within `seconds` (the same public form sent again). */
  async hasRecentSame(em: EntityManager, same: Partial<AccessRequest>, seconds: number): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `SELECT 1 FROM access_requests
        WHERE tenant_id = $1 AND requester_email_normalized = $2 AND status = 'unverified' AND origin = 'web'
          AND created_at > now() - make_interval(secs => $3) AND confirm_expires_at > now()
          AND requester_name = $4 AND requester_email = $5 AND organisation = $6
          AND wants_account = $7 AND documentation_wanted IS NOT DISTINCT FROM $8 AND account_reason IS NOT DISTINCT FROM $9
          AND wants_api = $10 AND system_name IS NOT DISTINCT FROM $11 AND technical_contact_email IS NOT DISTINCT FROM $12
          AND api_purpose IS NOT DISTINCT FROM $13
        LIMIT 1`,
      [
        same.tenantId, same.requesterEmailNormalized, seconds, same.requesterName, same.requesterEmail, same.organisation,
        same.wantsAccount, same.documentationWanted, same.accountReason, same.wantsApi, same.systemName,
        same.technicalContactEmail, same.apiPurpose,
      ],
    );
    return rows.length > 0;
  }

  async countOpen(em: EntityManager, tenantId: string, emailNormalized: string): Promise<number> {
    const rows: Array<{ n: number }> = await em.query(
      `SELECT count(*)::int AS n FROM access_requests
        WHERE tenant_id = $1 AND requester_email_normalized = $2
          AND (status = 'submitted' OR (status = 'unverified' AND confirm_expires_at > now()))`,
      [tenantId, emailNormalized],
    );
    return rows[0]?.n ?? 0;
  }

  page(tenantId: string, query: AccessRequestQuery): Promise<AccessRequest[]> {
    const qb = this.dataSource
      .getRepository(AccessRequest)
      .createQueryBuilder('r')
      .leftJoinAndSelect('r.apiClient', 'c')
      .where('r.tenant_id = :tenantId', { tenantId });
    if (query.status === 'unverified') qb.andWhere(`r.status = 'unverified' AND r.confirm_expires_at > now()`);
    else if (query.status === 'expired')
      qb.andWhere(`(r.status = 'expired' OR (r.status = 'unverified' AND r.confirm_expires_at <= now()))`);
    else if (query.status) qb.andWhere('r.status = :status', { status: query.status });
    if (query.search) {
      const like = `%${query.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      qb.andWhere(
        '(r.requester_name ILIKE :like OR r.requester_email ILIKE :like OR r.organisation ILIKE :like OR r.system_name ILIKE :like)',
        { like },
      );
    }
    if (query.sort) {
      const column = REQUEST_SORT_COLUMNS[query.sort.by as RequestSort];
      const keyset = textKeyset(column, 'r.id', query.sort, Boolean(query.backward), ':key', ':id');
      if (query.afterKey) qb.andWhere(keyset.condition, query.afterKey);
      return qb.orderBy(column, keyset.direction).addOrderBy('r.id', keyset.direction).limit(query.take).getMany();
    }
    if (query.after) {
      qb.andWhere(`(date_trunc('milliseconds', r.created_at), r.id) ${query.backward ? '<' : '>'} (:at, :id)`, query.after);
    }
    const direction = query.backward ? 'DESC' : 'ASC';
    // limit, not take: the join is many-to-one, and take with a join cannot order by an expression
    return qb.orderBy(`date_trunc('milliseconds', r.created_at)`, direction).addOrderBy('r.id', direction).limit(query.take).getMany();
  }

  /** Addresses of the tenant's active staff holding a role (those a new request is mailed to). */
  async staffAddresses(
    em: EntityManager,
    tenantId: string,
    role: string,
    exceptUserId: string | null,
  ): Promise<string[]> {
    const rows: Array<{ email: string }> = await em.query(
      `SELECT email FROM users
        WHERE tenant_id = $1 AND status = 'active' AND $2 = ANY(roles) AND ($3::uuid IS NULL OR id <> $3::uuid)
        ORDER BY created_at`,
      [tenantId, role, exceptUserId],
    );
    return rows.map((row) => row.email);
  }

  /** Approved requests waiting for a delivery to this user or client, locked for the caller. */
  awaitingDelivery(em: EntityManager, tenantId: string, by: { userId: string } | { apiClientId: string }) {
    const qb = em
      .getRepository(AccessRequest)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .where(`r.tenant_id = :tenantId AND r.status = 'approved'`, { tenantId });
    if ('userId' in by) qb.andWhere('r.user_id = :userId AND r.account_delivered_at IS NULL', by);
    else qb.andWhere('r.api_client_id = :apiClientId AND r.credentials_delivered_at IS NULL', by);
    return qb.orderBy('r.created_at').getMany();
  }

  /**
   * One sweep batch, one statement: up to `limit` unconfirmed requests past their 24 hours (rows
   * another sweeper holds are skipped) become expired, each with its audit event. Returns how many.
   */
  async expireBatch(limit: number): Promise<number> {
    const rows: Array<{ n: number }> = await this.dataSource.query(
      `WITH due AS (SELECT id FROM access_requests
                     WHERE status = 'unverified' AND confirm_expires_at <= now()
                     ORDER BY confirm_expires_at LIMIT $1 FOR UPDATE SKIP LOCKED),
            expired AS (UPDATE access_requests r SET status = 'expired', updated_at = now()
                          FROM due WHERE r.id = due.id AND r.status = 'unverified'
                        RETURNING r.id, r.tenant_id, r.confirm_expires_at, r.requester_name),
            audited AS (INSERT INTO audit_events (tenant_id, actor_type, action, target_type, target_id, target_name, details)
                        SELECT tenant_id, 'system', 'access_request.expired', 'access_request', id::text, requester_name,
                               jsonb_build_object('confirmExpiresAt', confirm_expires_at)
                          FROM expired
                        RETURNING 1)
       SELECT count(*)::int AS n FROM audited`,
      [limit],
    );
    return rows[0]?.n ?? 0;
  }

  /** Counts one public request from `source` (see {@link FailureWindows.record}). */
  countSource(tenantId: string, source: string, windowSeconds: number, limit: number): Promise<FailureCount> {
    return SOURCE_THROTTLES.record(this.dataSource, tenantId, source, windowSeconds, limit);
  }

  purgeStaleThrottles(windowSeconds: number): Promise<number> {
    return SOURCE_THROTTLES.purgeStale(this.dataSource, windowSeconds);
  }
}
