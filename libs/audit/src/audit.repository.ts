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

@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(em: EntityManager, event: Partial<AuditEvent>): Promise<void> {
    const repository = em.getRepository(AuditEvent);
    await repository.save(repository.create(event));
  }

  /**
   * Keyset pages over (time, id) in either direction, on the position indexes: the last page
   * costs what the first does. `actor` matches the person or the client, `action` is exact or a
   * `prefix.*`, `since`/`until` bound the time (inclusive / exclusive).
   */
  async find(query: AuditQuery): Promise<AuditEvent[]> {
    if (!query.actor) return this.page(query);
    // The person's events and the client's, each read newest first from its own index, merged:
    // one query with OR would gather and sort every event of a busy actor before the first page.
    const [asPerson, asClient] = await Promise.all([this.page(query, 'actor_id'), this.page(query, 'actor_client_id')]);
    const seen = new Set<string>();
    const sign = query.before ? -1 : 1;
    return [...asPerson, ...asClient]
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
