import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SigningAlgorithm } from '@gatehouse/tenants';
import { SigningKey } from './signing-key.entity.js';

/** A tenant's key claimed by a rotation sweep (row-locked until the sweep's transaction ends). */
export interface ClaimedKey {
  tenantId: string;
  algorithm: SigningAlgorithm;
}

const NEXT_OF_TENANT_ALGORITHM = `SELECT 1 FROM signing_keys n
  WHERE n.tenant_id = k.tenant_id AND n.status = 'next' AND n.algorithm = t.signing_algorithm`;

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

  findNext(em: EntityManager, tenantId: string): Promise<SigningKey | null> {
    return em.getRepository(SigningKey).findOne({ where: { tenantId, status: 'next' }, order: { createdAt: 'DESC' } });
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

  /** A retired key leaves the JWKS at once: whatever it signed stops verifying. */
  async revoke(em: EntityManager, id: string): Promise<void> {
    await em.getRepository(SigningKey).update({ id, status: 'retired' }, { status: 'revoked' });
  }

  findById(em: EntityManager, id: string): Promise<SigningKey | null> {
    return em.getRepository(SigningKey).findOneBy({ id });
  }

  /** Every key of the tenant (no private half), newest first. */
  findAll(tenantId: string): Promise<SigningKey[]> {
    return this.dataSource.getRepository(SigningKey).find({ where: { tenantId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  async activate(em: EntityManager, id: string, at: Date): Promise<void> {
    await em.getRepository(SigningKey).update({ id }, { status: 'active', activatedAt: at });
  }

  /** Deletes the tenant's pre-published keys (they never signed anything). */
  async deleteNext(em: EntityManager, tenantId: string): Promise<void> {
    await em.getRepository(SigningKey).delete({ tenantId, status: 'next' });
  }

  /** Deletes retired (and revoked) keys past their publication: nothing they signed can still be valid. */
  async deleteUnpublished(): Promise<number> {
    const rows: Array<{ deleted: number }> = await this.dataSource.query(
      `WITH deleted AS (DELETE FROM signing_keys WHERE status IN ('retired', 'revoked') AND publish_until < now() RETURNING 1)
       SELECT count(*)::int AS deleted FROM deleted`,
    );
    return rows[0]?.deleted ?? 0;
  }

  insert(em: EntityManager, values: Partial<SigningKey>): Promise<SigningKey> {
    const repository = em.getRepository(SigningKey);
    return repository.save(repository.create(values));
  }

  /**
   * Locks the tenant's active key row, as the scheduled rotation claims it: before the tenant's key
   * lock, so that neither waits for the other's. A key retired while this waited for it is no
   * longer active, and its successor was not yet there when the statement began: look again.
   */
  async lockActive(em: EntityManager, tenantId: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const locked: unknown[] = await em.query(`SELECT id FROM signing_keys WHERE tenant_id = $1 AND status = 'active' FOR UPDATE`, [tenantId]);
      if (locked.length) return;
      const active: unknown[] = await em.query(`SELECT id FROM signing_keys WHERE tenant_id = $1 AND status = 'active'`, [tenantId]);
      if (!active.length) return;
    }
  }

  /** Serialises key changes of one tenant until the transaction ends. */
  async lockTenantKeys(em: EntityManager, tenantId: string): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtext('gatehouse:signing-keys'), hashtext($1))`, [tenantId]);
  }

  /**
   * One active key due to be replaced — activated before `cutoff`, or of another algorithm than its
   * tenant's — whose successor (a `next` key of the tenant's algorithm) has been published since
   * `publishedBefore` at least, row-locked; keys another worker holds are skipped (`SKIP LOCKED`),
   * so several workers share a sweep and never roll the same key twice.
   */
  claimDueWithPublishedNext(em: EntityManager, cutoff: Date, publishedBefore: Date): Promise<ClaimedKey | null> {
    return this.claim(em, cutoff, `AND EXISTS (${NEXT_OF_TENANT_ALGORITHM} AND n.created_at <= $2)`, [publishedBefore]);
  }

  /** An active key due within `cutoff` (or of another algorithm) whose tenant has no `next` key of its algorithm yet. */
  claimDueWithoutNext(em: EntityManager, cutoff: Date): Promise<ClaimedKey | null> {
    return this.claim(em, cutoff, `AND NOT EXISTS (${NEXT_OF_TENANT_ALGORITHM})`, []);
  }

  /** Keys without a published certificate (created before keys had one), with their private half. */
  findUncertified(tenantId: string): Promise<SigningKey[]> {
    return this.dataSource
      .getRepository(SigningKey)
      .createQueryBuilder('k')
      .addSelect('k.privateKeyEncrypted')
      .where('k.tenantId = :tenantId AND k.certificateDer IS NULL', { tenantId })
      .getMany();
  }

  async setCertificate(id: string, certificateDer: Buffer): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(SigningKey)
      .set({ certificateDer })
      .where('id = :id AND certificate_der IS NULL', { id })
      .execute();
  }

  private async claim(em: EntityManager, cutoff: Date, condition: string, more: unknown[]): Promise<ClaimedKey | null> {
    const rows: Array<{ tenant_id: string; signing_algorithm: SigningAlgorithm }> = await em.query(
      `SELECT k.tenant_id, t.signing_algorithm FROM signing_keys k JOIN tenants t ON t.id = k.tenant_id
        WHERE k.status = 'active' AND (COALESCE(k.activated_at, k.created_at) < $1 OR k.algorithm <> t.signing_algorithm)
          ${condition}
        ORDER BY COALESCE(k.activated_at, k.created_at) LIMIT 1
        FOR UPDATE OF k SKIP LOCKED`,
      [cutoff, ...more],
    );
    const row = rows[0];
    return row ? { tenantId: row.tenant_id, algorithm: row.signing_algorithm } : null;
  }
}
