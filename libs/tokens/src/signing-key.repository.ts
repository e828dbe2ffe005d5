import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SigningKey } from './signing-key.entity.js';

/** Queries on `signing_keys`, nothing else. */
@Injectable()
export class SigningKeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The active key with its encrypted private half. */
  findActiveWithPrivateKey(tenantId: string, em?: EntityManager): Promise<SigningKey | null> {
    return (em ?? this.dataSource.manager)
      .getRepository(SigningKey)
      .createQueryBuilder('k')
      .addSelect('k.privateKeyEncrypted')
      .where('k.tenantId = :tenantId AND k.status = :status', { tenantId, status: 'active' })
      .getOne();
  }

  /** Keys a verifier may meet: active, next, and retired ones still within their publication. */
  findPublished(tenantId: string): Promise<SigningKey[]> {
    return this.dataSource
      .getRepository(SigningKey)
      .createQueryBuilder('k')
      .where('k.tenantId = :tenantId', { tenantId })
      .andWhere(`(k.status IN ('active', 'next') OR (k.status = 'retired' AND k.publishUntil > now()))`)
      .orderBy('k.createdAt', 'DESC')
      .getMany();
  }

  async retireActive(em: EntityManager, tenantId: string, publishUntil: Date): Promise<void> {
    await em
      .createQueryBuilder()
      .update(SigningKey)
      .set({ status: 'retired', retiredAt: () => 'now()', publishUntil })
      .where('tenant_id = :tenantId AND status = :status', { tenantId, status: 'active' })
      .execute();
  }

  insert(em: EntityManager, values: Partial<SigningKey>): Promise<SigningKey> {
    const repository = em.getRepository(SigningKey);
    return repository.save(repository.create(values));
  }

  /** Serialises key changes of one tenant until the transaction ends. */
  async lockTenantKeys(em: EntityManager, tenantId: string): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtext('gatehouse:signing-keys'), hashtext($1))`, [tenantId]);
  }

  /** One rotation sweep at a time across all workers; false when another worker holds it. */
  async tryLockRotation(em: EntityManager): Promise<boolean> {
    const rows: Array<{ locked: boolean }> = await em.query(
      `SELECT pg_try_advisory_xact_lock(hashtext('gatehouse:key-rotation')) AS locked`,
    );
    return rows[0]?.locked === true;
  }

  /** Tenants whose active key was activated before `activatedBefore`, oldest first. */
  async findDueTenants(em: EntityManager, activatedBefore: Date, limit: number): Promise<Array<{ tenantId: string; algorithm: string }>> {
    const rows: Array<{ tenant_id: string; signing_algorithm: string }> = await em.query(
      `SELECT k.tenant_id, t.signing_algorithm FROM signing_keys k JOIN tenants t ON t.id = k.tenant_id
        WHERE k.status = 'active' AND COALESCE(k.activated_at, k.created_at) < $1
        ORDER BY COALESCE(k.activated_at, k.created_at) LIMIT $2`,
      [activatedBefore, limit],
    );
    return rows.map((row) => ({ tenantId: row.tenant_id, algorithm: row.signing_algorithm }));
  }
}
