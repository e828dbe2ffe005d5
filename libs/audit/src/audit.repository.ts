import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditEvent } from './audit-event.entity.js';
import type { CursorPosition } from '@gatehouse/database';

export interface AuditQuery {
  tenantId: string;
  actor?: string;
  action?: string;
  target?: string;
  since?: Date;
  until?: Date;
  /** Rows older than this position (newest first). */
  after?: CursorPosition;
  /** Rows newer than this position, returned oldest first (the caller turns them around). */
  before?: CursorPosition;
  take: number;
}

/** The keyset position, exactly as `audit_events_tenant_position_idx` indexes it. */
const AT = `date_trunc('milliseconds', e.occurred_at AT TIME ZONE 'UTC')`;
const POSITION = `(${AT}, e.id)`;
const utcParam = (name: string) => `(CAST(:${name} AS timestamptz) AT TIME ZONE 'UTC')`;
const UUID = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;
/** Up to this many actions under a `prefix.*` are read one by one and merged. */
const MAX_MERGED_ACTIONS = 32;

@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Writes one event; returns its id (made by the database). */
  async insert(em: EntityManager, event: Partial<AuditEvent>): Promise<string> {
    const repository = em.getRepository(AuditEvent);
    return (await repository.save(repository.create(event))).id;
  }

  /**
   * Keyset pages over (time, id) in either direction, on the position indexes: the last page
   * costs what the first does. `actor` matches the person or the client, `action` is exact or a
   * `prefix.*`, `since`/`until` bound the time (inclusive / exclusive).
   */
  async find(query: AuditQuery): Promise<AuditEvent[]> {
    if (query.actor) {
      // The person's events and the client's, each read newest first from its own index, merged:
      // one query with OR would gather and sort every event of a busy actor before the first page.
      return this.merged(query, [this.page(query, 'actor_id'), this.page(query, 'actor_client_id')]);
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

  /**
   * The tenant's distinct actions that start with `prefix`, read off the action index one step per
   * distinct action (a few dozen exist), not per event.
   */
  private async actionsUnder(tenantId: string, prefix: string): Promise<string[]> {
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

  /** One keyset page; with `actorColumn`, the events whose actor (person or client) is `query.actor`. */
  private page(query: AuditQuery, actorColumn?: 'actor_id' | 'actor_client_id'): Promise<AuditEvent[]> {
    const qb = this.dataSource
      .getRepository(AuditEvent)
      .createQueryBuilder('e')
      .where('e.tenant_id = :tenantId', { tenantId: query.tenantId });
    if (actorColumn) qb.andWhere(`e.${actorColumn} = :actor`, { actor: query.actor });
    if (query.action?.endsWith('.*'))
      qb.andWhere('e.action LIKE :prefix', { prefix: `${likeEscape(query.action.slice(0, -1))}%` });
    else if (query.action) qb.andWhere('e.action = :action', { action: query.action });
    if (query.target) qb.andWhere('e.target_id = :target', { target: query.target });
    // On the position (a Date is exact to the millisecond, so this is occurred_at >= since, < until).
    if (query.since) qb.andWhere(`${AT} >= ${utcParam('since')}`, { since: query.since });
    if (query.until) qb.andWhere(`${AT} < ${utcParam('until')}`, { until: query.until });
    if (query.after) qb.andWhere(`${POSITION} < (${utcParam('at')}, :id)`, { at: query.after.at, id: query.after.id });
    if (query.before)
      qb.andWhere(`${POSITION} > (${utcParam('bat')}, :bid)`, { bat: query.before.at, bid: query.before.id });
    const order = query.before ? 'ASC' : 'DESC';
    return qb.orderBy(AT, order).addOrderBy('e.id', order).take(query.take).getMany();
  }

  /** Display names of this tenant's users among `ids` (actor ids that are not user ids are skipped). */
  async userNames(tenantId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const wanted = [...new Set(ids)];
    if (!wanted.length) return new Map();
    const rows: { id: string; name: string }[] = await this.dataSource.query(
      `SELECT id::text AS id, display_name AS name FROM users
        WHERE tenant_id = $1 AND id = ANY(SELECT w::uuid FROM unnest($2::text[]) w WHERE w ~ ${UUID})`,
      [tenantId, wanted],
    );
    return new Map(rows.map((row) => [row.id, row.name]));
  }
}

function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
