import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { TotpFactor } from './totp-factor.entity.js';

export interface FactorSummary {
  userId: string;
  totpConfirmedAt: Date | null;
  recoveryCodesLeft: number;
}

/** Queries of second factors: TOTP authenticators and recovery codes. */
@Injectable()
export class MfaRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }

  /** The person's authenticator with its sealed seed, confirmed or pending. */
  findTotp(tenantId: string, userId: string, em?: EntityManager): Promise<TotpFactor | null> {
    return this.manager(em)
      .getRepository(TotpFactor)
      .createQueryBuilder('t')
      .addSelect('t.sealedSecret')
      .where('t.tenant_id = :tenantId AND t.user_id = :userId', { tenantId, userId })
      .getOne();
  }

  /** Replaces a pending authenticator (never a confirmed one) with a new seed. */
  async savePending(tenantId: string, userId: string, sealedSecret: Buffer): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO totp_factors (tenant_id, user_id, sealed_secret) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET sealed_secret = EXCLUDED.sealed_secret, last_used_step = NULL, created_at = now()
        WHERE totp_factors.confirmed_at IS NULL`,
      [tenantId, userId, sealedSecret],
    );
  }

  /**
   * Takes the time step of a code, once: only a step later than the last one accepted. Of two
   * uses of one code (or two concurrent sign-ins) exactly one gets `true`.
   */
  async consumeStep(factorId: string, step: number, em?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.manager(em).query(
      `WITH c AS (UPDATE totp_factors SET last_used_step = $2
                   WHERE id = $1 AND (last_used_step IS NULL OR last_used_step < $2) RETURNING id)
       SELECT * FROM c`,
      [factorId, step],
    );
    return rows.length === 1;
  }

  async confirm(em: EntityManager, factorId: string): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `WITH c AS (UPDATE totp_factors SET confirmed_at = now() WHERE id = $1 AND confirmed_at IS NULL RETURNING id)
       SELECT * FROM c`,
      [factorId],
    );
    return rows.length === 1;
  }

  /** Replaces every recovery code of the person (used or not) with these hashes. */
  async replaceRecoveryCodes(em: EntityManager, tenantId: string, userId: string, hashes: Buffer[]): Promise<void> {
    await em.query(`DELETE FROM recovery_codes WHERE tenant_id = $1 AND user_id = $2`, [tenantId, userId]);
    await em.query(
      `INSERT INTO recovery_codes (tenant_id, user_id, code_hash) SELECT $1, $2, unnest($3::bytea[])`,
      [tenantId, userId, hashes],
    );
  }

  /** Uses one recovery code, once; returns how many are left, or `null` when it was not usable. */
  async useRecoveryCode(tenantId: string, userId: string, hash: Buffer): Promise<number | null> {
    const rows: Array<{ left: number }> = await this.dataSource.query(
      `WITH used AS (UPDATE recovery_codes SET used_at = now()
                      WHERE tenant_id = $1 AND user_id = $2 AND code_hash = $3 AND used_at IS NULL RETURNING id)
       SELECT (SELECT count(*)::int FROM recovery_codes
                WHERE tenant_id = $1 AND user_id = $2 AND used_at IS NULL AND id NOT IN (SELECT id FROM used)) AS left
         FROM used`,
      [tenantId, userId, hash],
    );
    return rows[0] ? rows[0].left : null;
  }

  /** Removes every second factor of the person. */
  async removeAll(em: EntityManager, tenantId: string, userId: string): Promise<number> {
    const totp: unknown[] = await em.query(
      `WITH d AS (DELETE FROM totp_factors WHERE tenant_id = $1 AND user_id = $2 AND confirmed_at IS NOT NULL RETURNING id)
       SELECT * FROM d`,
      [tenantId, userId],
    );
    await em.query(`DELETE FROM totp_factors WHERE tenant_id = $1 AND user_id = $2`, [tenantId, userId]);
    await em.query(`DELETE FROM recovery_codes WHERE tenant_id = $1 AND user_id = $2`, [tenantId, userId]);
    await em.query(`DELETE FROM passkeys WHERE tenant_id = $1 AND user_id = $2`, [tenantId, userId]);
    return totp.length;
  }

  /** Enrolment and recovery codes left, for each of these people (one query). */
  async summaries(tenantId: string, userIds: string[]): Promise<FactorSummary[]> {
    if (!userIds.length) return [];
    const rows: Array<{ user_id: string; confirmed_at: Date | null; codes_left: number }> = await this.dataSource.query(
      `SELECT u.id AS user_id, t.confirmed_at,
              (SELECT count(*)::int FROM recovery_codes r WHERE r.user_id = u.id AND r.used_at IS NULL) AS codes_left
         FROM unnest($2::uuid[]) AS u(id)
         LEFT JOIN totp_factors t ON t.user_id = u.id AND t.tenant_id = $1`,
      [tenantId, userIds],
    );
    return rows.map((r) => ({
      userId: r.user_id,
      totpConfirmedAt: r.confirmed_at ? new Date(r.confirmed_at) : null,
      recoveryCodesLeft: r.codes_left,
    }));
  }

  /** Whether the person has a confirmed second factor. */
  async hasConfirmed(userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL`,
      [userId],
    );
    return rows.length > 0;
  }
}
