import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import { FederatedCredential } from './federated-credential.entity.js';

/** A federated credential with its client's public id, as tenant-wide reads (the credential report) want it. */
export interface FederatedCredentialOfClient {
  clientId: string;
  clientName: string;
  credential: FederatedCredential;
}

/** Queries of federated credentials: per client, per tenant, and the count the limit needs. */
@Injectable()
export class FederatedCredentialRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }

  /** A client's credentials, oldest first. */
  ofClient(tenantId: string, apiClientId: string, em?: EntityManager): Promise<FederatedCredential[]> {
    return this.manager(em)
      .getRepository(FederatedCredential)
      .find({ where: { tenantId, apiClientId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** One credential of a client, row-locked when read in a transaction. */
  findOne(em: EntityManager, apiClientId: string, id: string): Promise<FederatedCredential | null> {
    if (!isUUID(id)) return Promise.resolve(null);
    return em.getRepository(FederatedCredential).findOne({ where: { apiClientId, id }, lock: { mode: 'pessimistic_write' } });
  }

  countOfClient(em: EntityManager, apiClientId: string): Promise<number> {
    return em.getRepository(FederatedCredential).countBy({ apiClientId });
  }

  save(em: EntityManager, row: FederatedCredential): Promise<FederatedCredential> {
    return em.getRepository(FederatedCredential).save(row);
  }

  create(em: EntityManager, row: Partial<FederatedCredential>): FederatedCredential {
    return em.getRepository(FederatedCredential).create(row);
  }

  async delete(em: EntityManager, id: string): Promise<void> {
    await em.getRepository(FederatedCredential).delete({ id });
  }

  /**
   * Every federated credential of a tenant with its client, by client then creation (index
   * `client_federated_credentials_tenant_issuer_idx` serves `issuer` filters).
   */
  async ofTenant(tenantId: string, filter: { issuer?: string } = {}): Promise<FederatedCredentialOfClient[]> {
    const qb = this.dataSource
      .getRepository(FederatedCredential)
      .createQueryBuilder('f')
      .innerJoin('api_clients', 'c', 'c.id = f.api_client_id AND c.tenant_id = f.tenant_id')
      .addSelect(['c.client_id AS client_id', 'c.display_name AS client_name'])
      .where('f.tenant_id = :tenantId', { tenantId });
    if (filter.issuer !== undefined) qb.andWhere('f.issuer = :issuer', { issuer: filter.issuer });
    const { entities, raw } = await qb.orderBy('c.client_id').addOrderBy('f.created_at').getRawAndEntities();
    return entities.map((credential, i) => ({
      clientId: (raw[i] as { client_id: string }).client_id,
      clientName: (raw[i] as { client_name: string }).client_name,
      credential,
    }));
  }
}
