import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { AccountLink, type AccountLinkPurpose } from './account-link.entity.js';

/** The links the Web UI's `/activate/{token}` takes; a console link is not one of them. */
export const WEB_LINK_PURPOSES: readonly AccountLinkPurpose[] = ['activation', 'reset'];

export interface PasswordState {
  hasPassword: boolean;
  everHadPassword: boolean;
}

/** Queries of account links and of the credential columns of users (password, lockout). */
@Injectable()
export class AccountLinkRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A new link expiring `hours` after the transaction's own clock (so ≤ 24 h means ≤ 24 h). */
  async insert(em: EntityManager, link: Pick<AccountLink, 'tenantId' | 'userId' | 'purpose' | 'tokenHash'>, hours: number): Promise<Date> {
    const rows: Array<{ expires_at: Date }> = await em.query(
      `INSERT INTO account_links (tenant_id, user_id, purpose, token_hash, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5)) RETURNING expires_at`,
      [link.tenantId, link.userId, link.purpose, link.tokenHash, hours],
    );
    return new Date(rows[0]!.expires_at);
  }

  /** Kills every unused link of a user (a newer link or a password reset replaces them); returns how many were still usable. */
  async invalidateAll(em: EntityManager, tenantId: string, userId: string): Promise<number> {
    const rows: Array<{ live: boolean }> = await em.query(
      `WITH k AS (UPDATE account_links SET used_at = now() WHERE tenant_id = $1 AND user_id = $2 AND used_at IS NULL
                   RETURNING expires_at > now() AS live)
       SELECT live FROM k`,
      [tenantId, userId],
    );
    return rows.filter((row) => row.live).length;
  }

  /** Kills the unused links of these purposes only (a newer self-service link replaces the older ones). */
  async invalidatePurposes(em: EntityManager, tenantId: string, userId: string, purposes: readonly AccountLinkPurpose[]): Promise<void> {
    await em.query(
      `UPDATE account_links SET used_at = now()
        WHERE tenant_id = $1 AND user_id = $2 AND used_at IS NULL AND purpose = ANY($3::text[])`,
      [tenantId, userId, [...purposes]],
    );
  }

  findByTokenHash(
    tenantId: string,
    tokenHash: Buffer,
    em?: EntityManager,
    purposes: readonly AccountLinkPurpose[] = WEB_LINK_PURPOSES,
  ): Promise<AccountLink | null> {
    return (em ?? this.dataSource.manager)
      .getRepository(AccountLink)
      .findOneBy({ tenantId, tokenHash, purpose: In([...purposes]) });
  }

  /** Consumes a link once: unused and unexpired, or nothing. */
  async consume(
    em: EntityManager,
    tenantId: string,
    tokenHash: Buffer,
    purposes: readonly AccountLinkPurpose[] = WEB_LINK_PURPOSES,
  ): Promise<{ id: string; userId: string; purpose: string } | null> {
    const rows: Array<{ id: string; user_id: string; purpose: string }> = await em.query(
      `WITH c AS (UPDATE account_links SET used_at = now()
                   WHERE tenant_id = $1 AND token_hash = $2 AND used_at IS NULL AND expires_at > now()
                     AND purpose = ANY($3::text[])
                   RETURNING id, user_id, purpose)
       SELECT * FROM c`,
      [tenantId, tokenHash, [...purposes]],
    );
    const row = rows[0];
    return row ? { id: row.id, userId: row.user_id, purpose: row.purpose } : null;
  }

  /**
   * Sets (or, with `null`, removes) a user's password. The change time moves whenever a password
   * is set or taken away (sessions older than it die), but not when a user who never had a
   * password is left without one: then nothing changed, and they still never had one.
   */
  async setPassword(em: EntityManager, tenantId: string, userId: string, passwordHash: string | null, mustChange: boolean): Promise<void> {
    await em.query(
      `UPDATE users SET password_hash = $3::text, must_change_password = $4,
              password_changed_at = CASE WHEN $3::text IS NULL AND password_hash IS NULL THEN password_changed_at ELSE now() END,
              failed_login_count = 0, locked_until = NULL, updated_at = now()
        WHERE tenant_id = $1 AND id = $2`,
      [tenantId, userId, passwordHash, mustChange],
    );
  }

  /** Whether the user can log in with a password now, and whether they ever had one. */
  async passwordState(em: EntityManager, tenantId: string, userId: string): Promise<PasswordState> {
    const rows: Array<{ has: boolean; ever: boolean }> = await em.query(
      `SELECT password_hash IS NOT NULL AS has, (password_hash IS NOT NULL OR password_changed_at IS NOT NULL) AS ever
         FROM users WHERE tenant_id = $1 AND id = $2`,
      [tenantId, userId],
    );
    return { hasPassword: rows[0]?.has ?? false, everHadPassword: rows[0]?.ever ?? false };
  }

  /** A link that signs the person in counts as their sign-in ("Last sign-in" on Staff and Users). */
  async recordSignIn(em: EntityManager, tenantId: string, userId: string): Promise<void> {
    await em.query(`UPDATE users SET last_sign_in_at = now() WHERE tenant_id = $1 AND id = $2`, [tenantId, userId]);
  }

  /** Clears both locks and both counts (an Administrator's unlock, or a fresh start). */
  async unlock(em: EntityManager, tenantId: string, userId: string): Promise<void> {
    await em.query(
      `UPDATE users SET failed_login_count = 0, locked_until = NULL, failed_second_factor_count = 0, second_factor_locked_until = NULL,
              updated_at = now()
        WHERE tenant_id = $1 AND id = $2`,
      [tenantId, userId],
    );
  }
}
