import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Session, SessionFlash, SessionKind } from './session.entity.js';

/** Kept equal to the longest idle timeout of the service (a session idle this long is dead). */
const SESSION_IDLE_SECONDS_FOR_PURGE = 30 * 60;

export interface ActiveSessionRow {
  tenantId: string;
  userId: string;
  csrfSecret: string;
  displayName: string;
  username: string;
  mustChangePassword: boolean;
  userStatus: string;
  roles: string[];
  secondFactorAt: Date | null;
  hasFlash: boolean;
}

export type NewSession = Pick<Session, 'id' | 'tenantId' | 'userId' | 'csrfSecret' | 'expiresAt' | 'kind'> & {
  secondFactorAt?: Date | null;
  flash?: SessionFlash[];
  userAgent?: string;
  source?: string;
};

export interface SessionListRow {
  id: Buffer;
  kind: SessionKind;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
  source: string | null;
}

/** Queries on `sessions`, nothing else. */
@Injectable()
export class SessionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(values: NewSession): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sessions (id, tenant_id, user_id, csrf_secret, created_at, last_seen_at, expires_at, flash, kind,
                             second_factor_at, user_agent, source)
       VALUES ($1, $2, $3, $4, now(), now(), $5, $6, $7, $8, $9, $10)`,
      [
        values.id,
        values.tenantId,
        values.userId,
        values.csrfSecret,
        values.expiresAt,
        flashValue(values.flash),
        values.kind,
        values.secondFactorAt ?? null,
        values.userAgent?.slice(0, 200) ?? null,
        values.source?.slice(0, 64) ?? null,
      ],
    );
  }

  /** Adds messages for the session's next page. */
  async addFlash(id: Buffer, flash: SessionFlash[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE sessions SET flash = coalesce(flash, '[]'::jsonb) || $2::jsonb WHERE id = $1 AND revoked_at IS NULL`,
      [id, JSON.stringify(flash)],
    );
  }

  /** The session's messages, removed in the same statement (each is shown once). */
  async takeFlash(id: Buffer): Promise<SessionFlash[]> {
    const rows = returned<{ flash: SessionFlash[] | null }>(
      await this.dataSource.query(
        `UPDATE sessions s SET flash = NULL FROM (SELECT id, flash FROM sessions WHERE id = $1 FOR UPDATE) old
          WHERE s.id = old.id AND old.flash IS NOT NULL
         RETURNING old.flash`,
        [id],
      ),
    );
    return rows[0]?.flash ?? [];
  }

  /**
   * The live session of this kind with this id, touched in the same statement: not revoked, not
   * past its absolute end, not idle longer than `idleSeconds`, not older than the user's last
   * password change (however it was changed: by the user, an admin reset or a link). The user's
   * row comes along, read now.
   */
  async touchActive(id: Buffer, kind: SessionKind, idleSeconds: number): Promise<ActiveSessionRow | null> {
    const rows = returned<ActiveSessionRow>(
      await this.dataSource.query(
        `UPDATE sessions s SET last_seen_at = now()
         FROM users u
        WHERE s.id = $1 AND s.kind = $2 AND u.id = s.user_id AND s.revoked_at IS NULL AND s.expires_at > now()
          AND s.last_seen_at > now() - make_interval(secs => $3)
          AND (u.password_changed_at IS NULL OR s.created_at >= u.password_changed_at)
       RETURNING s.tenant_id AS "tenantId", s.user_id AS "userId", s.csrf_secret AS "csrfSecret",
                 u.display_name AS "displayName", u.username, u.must_change_password AS "mustChangePassword",
                 u.status AS "userStatus", u.roles, s.second_factor_at AS "secondFactorAt",
                 s.flash IS NOT NULL AS "hasFlash"`,
        [id, kind, idleSeconds],
      ),
    );
    return rows[0] ?? null;
  }

  /** Keeps a WebAuthn challenge for this session (the last one asked replaces any before it). */
  async setChallenge(id: Buffer, challenge: string): Promise<void> {
    await this.dataSource.query(`UPDATE sessions SET webauthn_challenge = $2 WHERE id = $1`, [id, challenge]);
  }

  /** The session's WebAuthn challenge, removed in the same statement: each is used once. */
  async takeChallenge(id: Buffer): Promise<string | null> {
    const rows = returned<{ challenge: string | null }>(
      await this.dataSource.query(
        `UPDATE sessions s SET webauthn_challenge = NULL
           FROM (SELECT id, webauthn_challenge FROM sessions WHERE id = $1 FOR UPDATE) old
          WHERE s.id = old.id AND old.webauthn_challenge IS NOT NULL
         RETURNING old.webauthn_challenge AS challenge`,
        [id],
      ),
    );
    return rows[0]?.challenge ?? null;
  }

  /** Records a second factor just proved in this session. */
  async markSecondFactor(id: Buffer): Promise<Date> {
    const rows = returned<{ at: Date }>(
      await this.dataSource.query(`UPDATE sessions SET second_factor_at = now() WHERE id = $1 RETURNING second_factor_at AS at`, [id]),
    );
    return rows[0] ? new Date(rows[0].at) : new Date();
  }

  async revoke(id: Buffer): Promise<void> {
    await this.dataSource.query(`UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [id]);
  }

  /** Ends every session of a user, except `keep` when given; in the caller's transaction if any. */
  async revokeAllOfUser(tenantId: string, userId: string, keep?: Buffer, em?: EntityManager): Promise<number> {
    const rows = returned<unknown>(
      await (em ?? this.dataSource.manager).query(
        `UPDATE sessions SET revoked_at = now()
        WHERE tenant_id = $1 AND user_id = $2 AND revoked_at IS NULL AND ($3::bytea IS NULL OR id <> $3)
       RETURNING id`,
        [tenantId, userId, keep ?? null],
      ),
    );
    return rows.length;
  }

  /** A user's sessions that have not ended, newest first (idle ones of either kind included). */
  listLive(tenantId: string, userId: string, idleSeconds: Record<SessionKind, number>): Promise<SessionListRow[]> {
    return this.dataSource.query(
      `SELECT id, kind, created_at AS "createdAt", last_seen_at AS "lastSeenAt", user_agent AS "userAgent", source
         FROM sessions
        WHERE tenant_id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now()
          AND last_seen_at > now() - make_interval(secs => CASE kind WHEN 'console' THEN $3::int ELSE $4::int END)
        ORDER BY last_seen_at DESC
        LIMIT 50`,
      [tenantId, userId, idleSeconds.console, idleSeconds.web],
    );
  }

  /** Deletes sessions that ended more than `graceSeconds` ago, in one statement; returns how many. */
  async purgeEnded(graceSeconds: number): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH d AS (DELETE FROM sessions
                   WHERE expires_at < now() - make_interval(secs => $1)
                      OR revoked_at < now() - make_interval(secs => $1)
                      OR last_seen_at < now() - make_interval(secs => $1 + $2)
                  RETURNING 1)
       SELECT * FROM d`,
      [graceSeconds, SESSION_IDLE_SECONDS_FOR_PURGE],
    );
    return rows.length;
  }

  /** Ends every session whose user is no longer active (all tenants when `tenantId` is `*`). */
  async revokeOfInactiveUsers(tenantId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE sessions s SET revoked_at = now() FROM users u
        WHERE u.id = s.user_id AND u.status <> 'active' AND s.revoked_at IS NULL AND ($1 = '*' OR s.tenant_id::text = $1)`,
      [tenantId],
    );
  }
}

function flashValue(flash: SessionFlash[] | undefined): string | null {
  return flash?.length ? JSON.stringify(flash) : null;
}

/** TypeORM answers a raw UPDATE with `[rows, rowCount]` and other statements with `rows`. */
function returned<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
    return result[0] as T[];
  return result as T[];
}
