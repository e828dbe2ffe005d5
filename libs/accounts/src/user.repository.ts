import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import { type CursorPosition, type TextPosition, type TextSort, textKeyset } from '@gatehouse/database';
import type { Role } from './roles.js';
import { User, type UserStatus } from './user.entity.js';

/** `locked`: active, with a lock not yet over. */
export type UserStatusFilter = UserStatus | 'locked';

export interface UserQuery {
  /** Prefix of the username, the email or the display name, any case. */
  search?: string;
  username?: string;
  email?: string;
  status?: UserStatusFilter;
  role?: Role;
  /** Only users with a pending invitation that expires within 48 hours. */
  invitationsExpiring?: boolean;
  /** Newest first instead of oldest first. */
  newestFirst?: boolean;
  /** Keyset position to continue from; `backward`: towards the start of the order. */
  after?: CursorPosition;
  backward?: boolean;
  /** Sorted by a text column instead of creation: its order and the position to continue from. */
  sort?: TextSort;
  afterKey?: TextPosition;
  take: number;
}

/** The columns the list sorts by besides creation, by their names in the URL. */
export const USER_SORT_COLUMNS = { name: 'u.display_name', username: 'u.username', email: 'u.email' } as const;
export type UserSort = keyof typeof USER_SORT_COLUMNS;

/**
 * The list's order: creation time to the millisecond (what a cursor holds), in UTC so that the
 * expression is immutable and `users_tenant_order_idx` serves it — every page, first or last,
 * is an index range scan, and a search for a common prefix walks that index and filters.
 */
const LIST_ORDER = `date_trunc('milliseconds', u.created_at AT TIME ZONE 'UTC')`;

/** Up to this many users matching a search prefix are paged by id; more, and the order index is walked. */
export const RARE_PREFIX_ROWS = 2000;

/** `LIKE` pattern matching what starts with `prefix` (its `%`, `_` and `\` taken literally). */
export function prefixPattern(prefix: string): string {
  return `${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

@Injectable()
export class UserRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  insert(em: EntityManager, user: Partial<User>): Promise<User> {
    return em.getRepository(User).save(em.getRepository(User).create(user));
  }

  async save(em: EntityManager, user: User): Promise<User> {
    return em.getRepository(User).save(user);
  }

  async findById(tenantId: string, id: string, em?: EntityManager, lock = false): Promise<User | null> {
    if (!isUUID(id)) return null;
    return (em ?? this.dataSource.manager)
      .getRepository(User)
      .findOne({ where: { tenantId, id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  findByUsername(tenantId: string, username: string, em?: EntityManager): Promise<User | null> {
    return (em ?? this.dataSource.manager).getRepository(User).findOneBy({ tenantId, usernameNormalized: username.toLowerCase() });
  }

  /**
   * The people among `userIds` who have no password and were sent a link that sets one (an
   * activation, console or reset link not used yet, or a pending invitation's password window):
   * when the latest of those links stops working. Everyone else is absent from the map.
   */
  async invitedUntil(tenantId: string, userIds: string[], em?: EntityManager): Promise<Map<string, Date>> {
    if (!userIds.length) return new Map();
    const rows: Array<{ id: string; until: Date }> = await (em ?? this.dataSource.manager).query(
      `WITH links AS (
         SELECT user_id, expires_at FROM account_links
          WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND used_at IS NULL
         UNION ALL
         SELECT user_id, LEAST(link_sent_at + interval '24 hours', expires_at) FROM invitations
          WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND status = 'pending')
       SELECT u.id, max(l.expires_at) AS until
         FROM users u JOIN links l ON l.user_id = u.id
        WHERE u.tenant_id = $1 AND u.id = ANY($2::uuid[]) AND u.password_hash IS NULL
        GROUP BY u.id`,
      [tenantId, userIds],
    );
    return new Map(rows.map((row) => [row.id, new Date(row.until)]));
  }

  /** Serialises changes that may remove a tenant's Administrator, until the transaction ends. */
  async lockAdministrators(em: EntityManager, tenantId: string): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtext('gatehouse.administrators:' || $1))`, [tenantId]);
  }

  async countActiveAdministrators(em: EntityManager, tenantId: string, excludingId: string): Promise<number> {
    const rows: Array<{ n: number }> = await em.query(
      `SELECT count(*)::int AS n FROM users
        WHERE tenant_id = $1 AND id <> $2 AND status = 'active' AND 'Administrator' = ANY(roles)`,
      [tenantId, excludingId],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * One page of a tenant's users in creation order. The search is a prefix match on
   * `username_normalized`, `lower(email)` and `lower(display_name)`, each with its own
   * `text_pattern_ops` index. A probe reads up to {@link RARE_PREFIX_ROWS}+1 matches from those
   * three indexes first: a rare prefix then pages over exactly those ids (primary-key lookups and
   * a sort of at most that many rows); a common one walks the order index and filters, which finds
   * a page's worth quickly. Left to the planner alone, a rare prefix was sometimes estimated common
   * and walked the whole order index (761 ms at 1,000,000 users, BENCHMARKS.md).
   */
  async page(tenantId: string, query: UserQuery): Promise<User[]> {
    const qb = this.dataSource.getRepository(User).createQueryBuilder('u').where('u.tenant_id = :tenantId', { tenantId });
    if (query.search) {
      const prefix = prefixPattern(query.search);
      const matches = await this.prefixMatches(tenantId, prefix);
      if (matches.length <= RARE_PREFIX_ROWS) qb.andWhere('u.id = ANY(:matches)', { matches });
      else {
        qb.andWhere(
          `(u.username_normalized LIKE :prefix OR lower(u.email) LIKE :prefix OR lower(u.display_name) LIKE :prefix)`,
          { prefix },
        );
      }
    }
    if (query.username) qb.andWhere('u.username_normalized = :username', { username: query.username.toLowerCase() });
    if (query.email) qb.andWhere('lower(u.email) = lower(:email)', { email: query.email });
    if (query.status === 'locked') qb.andWhere(`u.status = 'active' AND (u.locked_until > now() OR u.second_factor_locked_until > now())`);
    else if (query.status) qb.andWhere('u.status = :status', { status: query.status });
    if (query.role) qb.andWhere(':role = ANY(u.roles)', { role: query.role });
    if (query.invitationsExpiring) {
      qb.andWhere(`EXISTS (SELECT 1 FROM invitations i WHERE i.tenant_id = u.tenant_id AND i.user_id = u.id
        AND i.status = 'pending' AND i.expires_at > now() AND i.expires_at <= now() + interval '48 hours')`);
    }
    if (query.sort) {
      const column = USER_SORT_COLUMNS[query.sort.by as UserSort];
      const keyset = textKeyset(column, 'u.id', query.sort, Boolean(query.backward), ':key', ':id');
      if (query.afterKey) qb.andWhere(keyset.condition, query.afterKey);
      return qb.orderBy(column, keyset.direction).addOrderBy('u.id', keyset.direction).take(query.take).getMany();
    }
    const ascending = !query.newestFirst !== !!query.backward;
    if (query.after) {
      qb.andWhere(`(${LIST_ORDER}, u.id) ${ascending ? '>' : '<'} ((CAST(:at AS timestamptz) AT TIME ZONE 'UTC'), :id)`, {
        at: query.after.at,
        id: query.after.id,
      });
    }
    const direction = ascending ? 'ASC' : 'DESC';
    return qb.orderBy(LIST_ORDER, direction).addOrderBy('u.id', direction).take(query.take).getMany();
  }

  /** Ids of up to {@link RARE_PREFIX_ROWS}+1 users per searched column whose value starts with the pattern's prefix (each an index range scan). */
  private async prefixMatches(tenantId: string, pattern: string): Promise<string[]> {
    const limit = RARE_PREFIX_ROWS + 1;
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `(SELECT id FROM users WHERE tenant_id = $1 AND username_normalized LIKE $2 LIMIT $3)
       UNION (SELECT id FROM users WHERE tenant_id = $1 AND lower(email) LIKE $2 LIMIT $3)
       UNION (SELECT id FROM users WHERE tenant_id = $1 AND lower(display_name) LIKE $2 LIMIT $3)`,
      [tenantId, pattern, limit],
    );
    return rows.map((row) => row.id);
  }
}
