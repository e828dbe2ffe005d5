import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager, In } from 'typeorm';
import type { CursorPosition } from '@gatehouse/database';
import { ApiScope } from './api-scope.entity.js';
import { Api } from './api.entity.js';

@Injectable()
export class ApiRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }

  insertApi(em: EntityManager, api: Partial<Api>): Promise<Api> {
    return em.getRepository(Api).save(em.getRepository(Api).create(api));
  }

  insertScope(em: EntityManager, scope: Partial<ApiScope>): Promise<ApiScope> {
    return em.getRepository(ApiScope).save(em.getRepository(ApiScope).create(scope));
  }

  async findById(tenantId: string, id: string, em?: EntityManager, lock = false): Promise<Api | null> {
    if (!isUUID(id)) return null;
    return this.manager(em)
      .getRepository(Api)
      .findOne({ where: { tenantId, id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  findByIdentifier(tenantId: string, identifier: string, em?: EntityManager): Promise<Api | null> {
    return this.manager(em).getRepository(Api).findOneBy({ tenantId, identifier });
  }

  /** The API named by its identifier URI or by its app id. */
  findByReference(em: EntityManager, tenantId: string, reference: string): Promise<Api | null> {
    if (isUUID(reference)) return em.getRepository(Api).findOneBy({ tenantId, appId: reference });
    return em.getRepository(Api).findOneBy({ tenantId, identifier: reference });
  }

  page(tenantId: string, after: CursorPosition | undefined, take: number): Promise<Api[]> {
    const qb = this.dataSource.getRepository(Api).createQueryBuilder('a').where('a.tenant_id = :tenantId', { tenantId });
    if (after) qb.andWhere(`(date_trunc('milliseconds', a.created_at), a.id) > (:at, :id)`, after);
    return qb.orderBy(`date_trunc('milliseconds', a.created_at)`).addOrderBy('a.id').take(take).getMany();
  }

  scopesOf(apiIds: string[], em?: EntityManager): Promise<ApiScope[]> {
    if (apiIds.length === 0) return Promise.resolve([]);
    return this.manager(em)
      .getRepository(ApiScope)
      .find({ where: { apiId: In(apiIds) }, order: { value: 'ASC' } });
  }

  scopesByIds(tenantId: string, ids: string[], em?: EntityManager): Promise<ApiScope[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.manager(em).getRepository(ApiScope).find({ where: { tenantId, id: In(ids) } });
  }

  apisByIds(tenantId: string, ids: string[], em?: EntityManager): Promise<Api[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.manager(em).getRepository(Api).find({ where: { tenantId, id: In(ids) } });
  }
}
