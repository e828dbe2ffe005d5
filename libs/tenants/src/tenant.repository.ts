import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Tenant } from './tenant.entity.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Queries on `tenants`, nothing else. */
@Injectable()
export class TenantRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findByIdOrSlug(idOrSlug: string): Promise<Tenant | null> {
    const repository = this.dataSource.getRepository(Tenant);
    if (UUID.test(idOrSlug)) return repository.findOne({ where: { id: idOrSlug.toLowerCase() } });
    return repository.findOne({ where: { slug: idOrSlug.toLowerCase() } });
  }

  /** The tenant with this slug, or else the only tenant when exactly one exists. */
  async findNamedOrOnly(slug: string): Promise<Tenant | null> {
    const repository = this.dataSource.getRepository(Tenant);
    const named = await repository.findOne({ where: { slug } });
    if (named) return named;
    const some = await repository.find({ take: 2, order: { createdAt: 'ASC' } });
    return some.length === 1 ? some[0]! : null;
  }

  findById(id: string, em?: EntityManager): Promise<Tenant | null> {
    return (em ?? this.dataSource.manager).getRepository(Tenant).findOne({ where: { id } });
  }

  /** Reads the row for update inside the caller's transaction. */
  /**
   * The tenant's row locked `FOR NO KEY UPDATE`: against another change of it, not against rows
   * that merely refer to it (a signing key written meanwhile checks its foreign key with `KEY SHARE`;
   * `FOR UPDATE` made such a writer and a settings change deadlock).
   */
  lockById(em: EntityManager, id: string): Promise<Tenant | null> {
    return em.getRepository(Tenant).findOne({ where: { id }, lock: { mode: 'for_no_key_update' } });
  }

  insert(em: EntityManager, values: Pick<Tenant, 'slug' | 'displayName'> & Partial<Pick<Tenant, 'signingAlgorithm'>>): Promise<Tenant> {
    const repository = em.getRepository(Tenant);
    return repository.save(repository.create(values));
  }

  async updateSettings(em: EntityManager, id: string, values: Partial<Tenant>): Promise<void> {
    await em.getRepository(Tenant).update({ id }, values);
  }
}
