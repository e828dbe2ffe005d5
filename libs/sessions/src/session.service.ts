import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ChangeListener } from '@gatehouse/database';
import type { SessionFlash, SessionKind } from './session.entity.js';
import { SessionRepository } from './session.repository.js';

/** A Web UI session ends after this long without a request… */
export const SESSION_IDLE_SECONDS = 30 * 60;
/** …a console session after this long (staff sessions can do more)… */
export const CONSOLE_IDLE_SECONDS = 15 * 60;
/** …and either after this long in any case. */
export const SESSION_ABSOLUTE_SECONDS = 8 * 60 * 60;

const IDLE_SECONDS: Record<SessionKind, number> = { web: SESSION_IDLE_SECONDS, console: CONSOLE_IDLE_SECONDS };

/** The person behind a live session, read from the database on every request. */
export interface SessionPrincipal {
  sessionId: Buffer;
  kind: SessionKind;
  tenantId: string;
  userId: string;
  username: string;
  displayName: string;
  mustChangePassword: boolean;
  /** The user's roles as they are now (not as they were at sign-in). */
  roles: string[];
  csrfToken: string;
  /** When a second factor was last proved in this session; `null`: the password only. */
  secondFactorAt: Date | null;
  /** Messages wait for the next page ({@link SessionService.takeFlash}). */
  hasFlash: boolean;
}

export interface StartedSession {
  /** The cookie value: shown once, never stored. */
  token: string;
  sessionId: Buffer;
  csrfToken: string;
}

export interface StartOptions {
  kind?: SessionKind;
  secondFactorAt?: Date | null;
  flash?: SessionFlash[];
  userAgent?: string;
  source?: string;
}

/** A session as its owner sees it in a list ("this browser", "started 2 hours ago"). */
export interface SessionView {
  kind: SessionKind;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
  source: string | null;
  current: boolean;
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
 * Server-side sessions of the Web UI and of the console: 256-bit cookie tokens, idle and absolute
 * timeouts per kind, a session of one kind never opens the other, and death of every session of a
 * user that is disabled (checked on each request, and swept when a user changes).
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

  async start(tenantId: string, userId: string, options: StartOptions = {}): Promise<StartedSession> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const sessionId = sessionIdOf(token);
    const expiresAt = new Date(Date.now() + SESSION_ABSOLUTE_SECONDS * 1000);
    await this.sessions.insert({
      id: sessionId,
      tenantId,
      userId,
      csrfSecret: csrfToken,
      expiresAt,
      kind: options.kind ?? 'web',
      secondFactorAt: options.secondFactorAt,
      flash: options.flash,
      userAgent: options.userAgent,
      source: options.source,
    });
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

  /**
   * The live session of `kind` behind a cookie value, or `null`; a disabled user's sessions end
   * here. A cookie of the other kind resolves to nothing, even with the right value.
   */
  async resolve(tenantId: string, token: string | undefined, kind: SessionKind = 'web'): Promise<SessionPrincipal | null> {
    if (!token || token.length > 100) return null;
    const sessionId = sessionIdOf(token);
    const row = await this.sessions.touchActive(sessionId, kind, IDLE_SECONDS[kind]);
    if (!row || row.tenantId !== tenantId) return null;
    if (row.userStatus !== 'active') {
      await this.sessions.revokeAllOfUser(row.tenantId, row.userId);
      return null;
    }
    return {
      sessionId,
      kind,
      tenantId,
      userId: row.userId,
      username: row.username,
      displayName: row.displayName,
      mustChangePassword: row.mustChangePassword,
      roles: row.roles,
      csrfToken: row.csrfSecret,
      secondFactorAt: row.secondFactorAt ? new Date(row.secondFactorAt) : null,
      hasFlash: row.hasFlash,
    };
  }

  /** Remembers the WebAuthn challenge a passkey must sign for this session. */
  setChallenge(sessionId: Buffer, challenge: string): Promise<void> {
    return this.sessions.setChallenge(sessionId, challenge);
  }

  /** Takes the session's WebAuthn challenge (once). */
  takeChallenge(sessionId: Buffer): Promise<string | null> {
    return this.sessions.takeChallenge(sessionId);
  }

  /** A second factor was just proved in this session (step-up). */
  markSecondFactor(sessionId: Buffer): Promise<Date> {
    return this.sessions.markSecondFactor(sessionId);
  }

  /** Logout: every session of the user ends, on every device; inside the caller's transaction if any. Returns how many. */
  endAllOf(tenantId: string, userId: string, em?: EntityManager): Promise<number> {
    return this.sessions.revokeAllOfUser(tenantId, userId, undefined, em);
  }

  /** "Sign out everywhere else": every session of the user but this one ends. */
  endOthers(principal: Pick<SessionPrincipal, 'tenantId' | 'userId' | 'sessionId'>): Promise<number> {
    return this.sessions.revokeAllOfUser(principal.tenantId, principal.userId, principal.sessionId);
  }

  /** The user's live sessions of both kinds, this one marked. */
  async list(principal: Pick<SessionPrincipal, 'tenantId' | 'userId' | 'sessionId'>): Promise<SessionView[]> {
    const rows = await this.sessions.listLive(principal.tenantId, principal.userId, IDLE_SECONDS);
    return rows.map((row) => ({
      kind: row.kind,
      createdAt: new Date(row.createdAt),
      lastSeenAt: new Date(row.lastSeenAt),
      userAgent: row.userAgent,
      source: row.source,
      current: row.id.equals(principal.sessionId),
    }));
  }

  /**
   * After a password change: every session of the user ends (older sessions are dead anyway once
   * the password changed) and the person who changed it continues in a fresh one of the same kind.
   */
  async renewAfterPasswordChange(
    principal: Pick<SessionPrincipal, 'tenantId' | 'userId'>,
    options: StartOptions = {},
  ): Promise<StartedSession> {
    await this.sessions.revokeAllOfUser(principal.tenantId, principal.userId);
    return this.start(principal.tenantId, principal.userId, options);
  }

  /** For a scheduled sweep (the worker owns schedules): deletes sessions dead for a day. */
  purgeEnded(): Promise<number> {
    return this.sessions.purgeEnded(24 * 60 * 60);
  }

  /** Ends this one session (a sign-out of one tenant's console leaves another tenant's alone). */
  async endSession(principal: Pick<SessionPrincipal, 'sessionId'>): Promise<void> {
    await this.sessions.revoke(principal.sessionId);
  }

  /** Ends the session behind a cookie value (a fresh login replaces it). */
  async end(token: string | undefined): Promise<void> {
    if (token) await this.sessions.revoke(sessionIdOf(token));
  }
}
