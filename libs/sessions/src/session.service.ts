import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ChangeListener } from '@gatehouse/database';
import type { SessionFlash } from './session.entity.js';
import { SessionRepository } from './session.repository.js';

/** A session ends after this long without a request… */
export const SESSION_IDLE_SECONDS = 30 * 60;
/** …and after this long in any case. */
export const SESSION_ABSOLUTE_SECONDS = 8 * 60 * 60;

/** The person behind a live session, read from the database on every request. */
export interface SessionPrincipal {
  sessionId: Buffer;
  tenantId: string;
  userId: string;
  username: string;
  displayName: string;
  mustChangePassword: boolean;
  csrfToken: string;
  /** Messages wait for the next page ({@link SessionService.takeFlash}). */
  hasFlash: boolean;
}

export interface StartedSession {
  /** The cookie value: shown once, never stored. */
  token: string;
  sessionId: Buffer;
  csrfToken: string;
}

/** SHA-256 of a cookie value: what the `sessions` table stores as id. */
export function sessionIdOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Constant-time comparison of a presented CSRF token with the session's. */
export function csrfMatches(expected: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Server-side sessions: 256-bit cookie tokens, idle and absolute timeouts, and death of every
 * session of a user that is disabled (checked on each request, and swept when a user changes).
 */
@Injectable()
export class SessionService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SessionService.name);
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly listener: ChangeListener,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.listener.subscribe((event) => {
      if (event.kind === 'user' || event.id === '*') {
        this.sessions
          .revokeOfInactiveUsers(event.tenantId)
          .catch((error: unknown) => this.logger.warn(`session sweep failed: ${String(error)}`));
      }
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  async start(tenantId: string, userId: string, options: { flash?: SessionFlash[] } = {}): Promise<StartedSession> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const sessionId = sessionIdOf(token);
    const expiresAt = new Date(Date.now() + SESSION_ABSOLUTE_SECONDS * 1000);
    await this.sessions.insert({ id: sessionId, tenantId, userId, csrfSecret: csrfToken, expiresAt, flash: options.flash });
    return { token, sessionId, csrfToken };
  }

  /** Keeps a message for the next page this session shows (after a redirect). */
  addFlash(sessionId: Buffer, flash: SessionFlash): Promise<void> {
    return this.sessions.addFlash(sessionId, [flash]);
  }

  /** The waiting messages of a session, each returned once. */
  takeFlash(principal: Pick<SessionPrincipal, 'sessionId' | 'hasFlash'>): Promise<SessionFlash[]> {
    return principal.hasFlash ? this.sessions.takeFlash(principal.sessionId) : Promise.resolve([]);
  }

  /** The live session behind a cookie value, or `null`; a disabled user's sessions end here. */
  async resolve(tenantId: string, token: string | undefined): Promise<SessionPrincipal | null> {
    if (!token || token.length > 100) return null;
    const sessionId = sessionIdOf(token);
    const row = await this.sessions.touchActive(sessionId, SESSION_IDLE_SECONDS);
    if (!row || row.tenantId !== tenantId) return null;
    if (row.userStatus !== 'active') {
      await this.sessions.revokeAllOfUser(row.tenantId, row.userId);
      return null;
    }
    const { userId, username, displayName, mustChangePassword, csrfSecret, hasFlash } = row;
    return { sessionId, tenantId, userId, username, displayName, mustChangePassword, csrfToken: csrfSecret, hasFlash };
  }

  /** Logout: every session of the user ends, on every device. */
  async endAllOf(tenantId: string, userId: string): Promise<void> {
    await this.sessions.revokeAllOfUser(tenantId, userId);
  }

  /**
   * After a password change: every session of the user ends (older sessions are dead anyway once
   * the password changed) and the person who changed it continues in a fresh one.
   */
  async renewAfterPasswordChange(
    principal: Pick<SessionPrincipal, 'tenantId' | 'userId'>,
    options: { flash?: SessionFlash[] } = {},
  ): Promise<StartedSession> {
    await this.sessions.revokeAllOfUser(principal.tenantId, principal.userId);
    return this.start(principal.tenantId, principal.userId, options);
  }

  /** For a scheduled sweep (the worker owns schedules): deletes sessions dead for a day. */
  purgeEnded(): Promise<number> {
    return this.sessions.purgeEnded(24 * 60 * 60);
  }

  /** Ends the session behind a cookie value (a fresh login replaces it). */
  async end(token: string | undefined): Promise<void> {
    if (token) await this.sessions.revoke(sessionIdOf(token));
  }
}
