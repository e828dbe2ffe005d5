import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditEvent } from './audit-event.entity.js';
import { ACTOR_NAME_SQL, ACTOR_USERNAME_SQL, targetNameSql, uuidOrNull } from './audit-names.js';
import type { CursorPosition } from '@gatehouse/database';

export interface AuditQuery {
  tenantId: string;
  /** Ids of the actor (a person's user id, or a client id): any of them. */
  actors?: readonly string[];
  action?: string;
  /** Target ids: any of them. */
  targets?: readonly string[];
  since?: Date;
  until?: Date;
  /** Rows older than this position (newest first). */
  after?: CursorPosition;
  /** Rows newer than this position, returned oldest first (the caller turns them around). */
  before?: CursorPosition;
  take: number;
}

/** An event to write: what happened; its names are read as it is written. */
export type NewAuditEvent = Pick<
  AuditEvent,
  'tenantId' | 'actorType' | 'actorId' | 'actorClientId' | 'action' | 'targetType' | 'targetId' | 'details' | 'requestId' | 'sourceAddress'
> & { targetName?: string | null };

/** The keyset position, exactly as `audit_events_tenant_position_idx` indexes it. */
const AT = `date_trunc('milliseconds', e.occurred_at AT TIME ZONE 'UTC')`;
const POSITION = `(${AT}, e.id)`;
const utcParam = (name: string) => `(CAST(:${name} AS timestamptz) AT TIME ZONE 'UTC')`;
/** Up to this many actions under a `prefix.*` are read one by one and merged. */
const MAX_MERGED_ACTIONS = 32;

@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One event, in the transaction of the change it records, with the names of its actor and
   * target as they are at this moment (read in the same statement; `targetName` when the caller
   * knows it better, e.g. of a row it just deleted). Returns its id (made by the database).
   */
  async insert(em: EntityManager, event: NewAuditEvent): Promise<string> {
    const targetName = targetNameSql(event.targetType);
    const targetUuid = targetName ? [uuidOrNull(event.targetId)] : [];
    const rows: Array<{ id: string }> = await em.query(
      `INSERT INTO audit_events (tenant_id, actor_type, actor_id, actor_client_id, actor_name, actor_username,
                                 action, target_type, target_id, target_name, details, request_id, source_address)
       VALUES ($1, $2, $5, $6, ${ACTOR_NAME_SQL}, ${ACTOR_USERNAME_SQL},
               $7, $8, $9, COALESCE($10::text, ${targetName ?? 'NULL'}), $11::jsonb, $12, $13)
       RETURNING id`,
      [
        event.tenantId,
        event.actorType,
        event.actorType === 'user' ? uuidOrNull(event.actorId) : null,
        uuidOrNull(event.actorClientId),
        event.actorId,
        event.actorClientId,
        event.action,
        event.targetType,
        event.targetId,
        event.targetName ?? null,
        JSON.stringify(event.details),
        event.requestId,
        event.sourceAddress,
        ...targetUuid,
      ],
    );
    return rows[0]!.id;
  }

  /**
   * Keyset pages over (time, id) in either direction, on the position indexes: the last page
   * costs what the first does. `actors` match the person or the client, `action` is exact or a
   * `prefix.*`, `targets` any of their ids, `since`/`until` bound the time (inclusive / exclusive).
   */
  async find(query: AuditQuery): Promise<AuditEvent[]> {
    if (query.actors?.length) {
      // Each actor's events as the person and as the client, each read newest first from its own
      // index, merged: one query with OR would gather and sort every event of a busy actor first.
      const pages = query.actors.flatMap((actor) => [this.page(query, { column: 'actor_id', actor }), this.page(query, { column: 'actor_client_id', actor })]);
      return this.merged(query, pages);
    }
    if (query.targets && query.targets.length > 1) {
      return this.merged(query, query.targets.map((target) => this.page({ ...query, targets: [target] })));
    }
    if (query.action?.endsWith('.*')) {
      // Each action under the prefix read newest first from the action index, merged: one query
      // with LIKE walks the position index and filters (≈ 100,000 rows for `client.*` among ten
      // million events). A prefix that names more actions than that is worth keeps the one query.
      const actions = await this.actionsUnder(query.tenantId, query.action.slice(0, -1));
      if (actions.length <= MAX_MERGED_ACTIONS) {
        return this.merged(query, actions.map((action) => this.page({ ...query, action })));
      }
    }
    return this.page(query);
  }

  /** One event of the tenant, or null. */
  findOne(tenantId: string, id: string): Promise<AuditEvent | null> {
    return this.dataSource.getRepository(AuditEvent).findOneBy({ tenantId, id });
  }

  /**
   * The tenant's distinct actions that start with `prefix`, read off the action index one step per
   * distinct action (a few dozen exist), not per event.
   */
  async actionsUnder(tenantId: string, prefix: string): Promise<string[]> {
    const rows: Array<{ action: string }> = await this.dataSource.query(
      `WITH RECURSIVE actions(action) AS (
         (SELECT action FROM audit_events WHERE tenant_id = $1 ORDER BY action LIMIT 1)
         UNION ALL
         SELECT (SELECT e.action FROM audit_events e WHERE e.tenant_id = $1 AND e.action > a.action ORDER BY e.action LIMIT 1)
           FROM actions a WHERE a.action IS NOT NULL)
       SELECT action FROM actions WHERE action LIKE $2`,
      [tenantId, `${likeEscape(prefix)}%`],
    );
    return rows.map((row) => row.action);
  }

  /** Pages of one query read apart, as one page: deduplicated, in the list's order, cut to `take`. */
  private async merged(query: AuditQuery, pages: Array<Promise<AuditEvent[]>>): Promise<AuditEvent[]> {
    const seen = new Set<string>();
    const sign = query.before ? -1 : 1;
    return (await Promise.all(pages))
      .flat()
      .filter((event) => !seen.has(event.id) && seen.add(event.id))
      .sort(
        (a, b) => sign * (b.occurredAt.getTime() - a.occurredAt.getTime() || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0)),
      )
      .slice(0, query.take);
  }

  /** One keyset page; with `by`, the events whose actor (as a person or as a client) is `by.actor`. */
  private page(query: AuditQuery, by?: { column: 'actor_id' | 'actor_client_id'; actor: string }): Promise<AuditEvent[]> {
    const qb = this.dataSource
      .getRepository(AuditEvent)
      .createQueryBuilder('e')
      .where('e.tenant_id = :tenantId', { tenantId: query.tenantId });
    if (by) qb.andWhere(`e.${by.column} = :actor`, { actor: by.actor });
    if (query.action?.endsWith('.*'))
      qb.andWhere('e.action LIKE :prefix', { prefix: `${likeEscape(query.action.slice(0, -1))}%` });
    else if (query.action) qb.andWhere('e.action = :action', { action: query.action });
    if (query.targets?.length === 1) qb.andWhere('e.target_id = :target', { target: query.targets[0] });
    else if (query.targets?.length) qb.andWhere('e.target_id IN (:...targets)', { targets: query.targets });
    // On the position (a Date is exact to the millisecond, so this is occurred_at >= since, < until).
    if (query.since) qb.andWhere(`${AT} >= ${utcParam('since')}`, { since: query.since });
    if (query.until) qb.andWhere(`${AT} < ${utcParam('until')}`, { until: query.until });
    if (query.after) qb.andWhere(`${POSITION} < (${utcParam('at')}, :id)`, { at: query.after.at, id: query.after.id });
    if (query.before)
      qb.andWhere(`${POSITION} > (${utcParam('bat')}, :bid)`, { bat: query.before.at, bid: query.before.id });
    const order = query.before ? 'ASC' : 'DESC';
    return qb.orderBy(AT, order).addOrderBy('e.id', order).take(query.take).getMany();
  }
}

/** `value` as a literal part of a LIKE pattern. */
export function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
