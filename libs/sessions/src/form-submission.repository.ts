import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** How long a sent form is remembered: the same fields on the same path within it are a repeat. */
const REPEAT_WINDOW_SECONDS = 30 * 60;
/** How long a form sent after the session ended waits for its person to sign in again. */
const STASH_SECONDS = 60 * 60;

export interface FormSending {
  sessionId: Buffer;
  token: string;
  path: string;
  contentHash: Buffer;
  /** Sent from "Do it again" on the repeat page: only the token counts. */
  again: boolean;
}

export interface SentForm {
  token: string;
  /** Where the form was sent. */
  path: string;
  state: 'pending' | 'done';
  location: string | null;
  message: string | null;
  hasView: boolean;
  createdAt: Date;
  completedAt: Date | null;
  shownAt: Date | null;
}

export type Claim = { claimed: true } | { claimed: false; previous: SentForm; sameToken: boolean };

const COLUMNS = `token, path, state, location, message, view IS NOT NULL AS "hasView", created_at AS "createdAt",
                 completed_at AS "completedAt", shown_at AS "shownAt"`;

/** The hash of a form's path and fields (names sorted; the tokens left out), to spot the same form sent again. */
export function formContentHash(path: string, fields: Readonly<Record<string, string | readonly string[]>>): Buffer {
  const hash = createHash('sha256').update(path);
  for (const name of Object.keys(fields).sort()) {
    const value = fields[name];
    for (const one of typeof value === 'string' ? [value] : (value ?? [])) hash.update(`\0${name}\0${one}`);
  }
  return hash.digest();
}

/** Queries on `form_submissions` and `form_stashes`: each form acts once; a timed-out form waits for its person. */
@Injectable()
export class FormSubmissionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims a sending: refused when the same token was sent before, or when the last form this
   * session sent to this path held the same fields (and is recent). Claims of one session and
   * path are serialized, so two tabs racing cannot both pass.
   */
  claim(sending: FormSending): Promise<Claim> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtextextended(encode($1::bytea, 'hex') || $2, 0))`, [
        sending.sessionId,
        sending.path,
      ]);
      const same: SentForm[] = await em.query(
        `SELECT ${COLUMNS} FROM form_submissions WHERE session_id = $1 AND token = $2`,
        [sending.sessionId, sending.token],
      );
      if (same[0]) return { claimed: false, previous: same[0], sameToken: true };
      if (!sending.again) {
        const last: (SentForm & { contentHash: Buffer })[] = await em.query(
          `SELECT ${COLUMNS}, content_hash AS "contentHash" FROM form_submissions
            WHERE session_id = $1 AND path = $2 AND created_at > now() - make_interval(secs => $3)
            ORDER BY created_at DESC LIMIT 1`,
          [sending.sessionId, sending.path, REPEAT_WINDOW_SECONDS],
        );
        if (last[0] && last[0].contentHash.equals(sending.contentHash)) {
          const { contentHash: _hash, ...previous } = last[0];
          return { claimed: false, previous, sameToken: false };
        }
      }
      await em.query(
        `INSERT INTO form_submissions (session_id, token, path, content_hash, state) VALUES ($1, $2, $3, $4, 'pending')`,
        [sending.sessionId, sending.token, sending.path, sending.contentHash],
      );
      return { claimed: true };
    });
  }

  async find(sessionId: Buffer, token: string): Promise<SentForm | null> {
    const rows: SentForm[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM form_submissions WHERE session_id = $1 AND token = $2`,
      [sessionId, token],
    );
    return rows[0] ?? null;
  }

  /** The action finished: where its result is, what it said, and a result to show once (encrypted). */
  async complete(
    sessionId: Buffer,
    token: string,
    outcome: { location: string; message: string | null; view?: Buffer },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE form_submissions SET state = 'done', location = $3, message = $4, view = $5, completed_at = now()
        WHERE session_id = $1 AND token = $2`,
      [sessionId, token, outcome.location, outcome.message, outcome.view ?? null],
    );
  }

  /** The action did nothing (refused, or its form came back with errors): the form may be sent again. */
  async release(sessionId: Buffer, token: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM form_submissions WHERE session_id = $1 AND token = $2 AND state = 'pending'`,
      [sessionId, token],
    );
  }

  /** The result kept to be shown once, removed in the same statement; `null` view when shown before. */
  async takeView(sessionId: Buffer, token: string): Promise<(SentForm & { view: Buffer | null }) | null> {
    const rows: unknown = await this.dataSource.query(
      `UPDATE form_submissions f SET view = NULL, shown_at = coalesce(f.shown_at, now())
         FROM (SELECT session_id, token, view, shown_at FROM form_submissions WHERE session_id = $1 AND token = $2 FOR UPDATE) old
        WHERE f.session_id = old.session_id AND f.token = old.token
       RETURNING f.token, f.path, f.state, f.location, f.message, old.view IS NOT NULL AS "hasView", f.created_at AS "createdAt",
                 f.completed_at AS "completedAt", old.shown_at AS "shownAt", old.view`,
      [sessionId, token],
    );
    const list = (Array.isArray(rows) && Array.isArray(rows[0]) ? rows[0] : rows) as (SentForm & {
      view: Buffer | null;
    })[];
    return list[0] ?? null;
  }

  /** The person of a console session, ended or not (to keep a form sent after it ended for them). */
  async ownerOf(sessionId: Buffer, tenantId: string): Promise<{ userId: string; csrfSecret: string } | null> {
    const rows: { userId: string; csrfSecret: string }[] = await this.dataSource.query(
      `SELECT user_id AS "userId", csrf_secret AS "csrfSecret" FROM sessions WHERE id = $1 AND tenant_id = $2 AND kind = 'console'`,
      [sessionId, tenantId],
    );
    return rows[0] ?? null;
  }

  /** Keeps a form for its person; returns the token that finds it again (only its hash is stored). */
  async stash(
    tenantId: string,
    userId: string,
    action: string,
    fields: Record<string, string | string[]>,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.dataSource.query(`DELETE FROM form_stashes WHERE expires_at < now()`);
    await this.dataSource.query(
      `INSERT INTO form_stashes (id, tenant_id, user_id, action, fields, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [stashId(token), tenantId, userId, action, JSON.stringify(fields), STASH_SECONDS],
    );
    return token;
  }

  async findStash(
    tenantId: string,
    userId: string,
    token: string,
  ): Promise<{ action: string; fields: Record<string, string | string[]>; createdAt: Date } | null> {
    const rows: { action: string; fields: Record<string, string | string[]>; createdAt: Date }[] =
      await this.dataSource.query(
        `SELECT action, fields, created_at AS "createdAt" FROM form_stashes
        WHERE id = $1 AND tenant_id = $2 AND user_id = $3 AND expires_at > now()`,
        [stashId(token), tenantId, userId],
      );
    return rows[0] ?? null;
  }

  async dropStash(token: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM form_stashes WHERE id = $1`, [stashId(token)]);
  }
}

function stashId(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
