import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import { type CursorPosition, keysetCondition, keysetKey } from '@gatehouse/database';
import type { Role } from './roles.js';
import { User, type UserStatus } from './user.entity.js';

export interface UserQuery {
  username?: string;
  email?: string;
  status?: UserStatus;
  role?: Role;
  after?: CursorPosition;
  take: number;
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

  page(tenantId: string, query: UserQuery): Promise<User[]> {
    const qb = this.dataSource.getRepository(User).createQueryBuilder('u').where('u.tenant_id = :tenantId', { tenantId });
    if (query.username) qb.andWhere('u.username_normalized = :username', { username: query.username.toLowerCase() });
    if (query.email) qb.andWhere('lower(u.email) = lower(:email)', { email: query.email });
    if (query.status) qb.andWhere('u.status = :status', { status: query.status });
    if (query.role) qb.andWhere(':role = ANY(u.roles)', { role: query.role });
    if (query.after) {
      qb.andWhere(keysetCondition('u.created_at', 'u.id', '>'), { at: query.after.at, id: query.after.id });
    }
    return qb.orderBy(keysetKey('u.created_at')).addOrderBy('u.id').take(query.take).getMany();
  }
}
