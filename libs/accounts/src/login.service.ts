import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import argon2 from 'argon2';
import { DataSource } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { MetricsRegistry } from '@gatehouse/http';
import { MailOutbox, passwordChangedEmail } from '@gatehouse/mail';
import { type LoginCandidate, LoginRepository, lockOf } from './login.repository.js';
import { MfaRepository } from './mfa/mfa.repository.js';
import type { Role } from './roles.js';
import {
  type PasswordContext,
  type PasswordVerdict,
  checkConfirmation,
  checkPasswordPolicy,
} from './password-policy.js';
import { LOCK_SECONDS, SOURCE_FAILURE_LIMIT, SOURCE_WINDOW_SECONDS, lockSecondsAfter } from './login.rules.js';

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

export interface AuthenticatedUser {
  id: string;
  tenantId: string;
  username: string;
  displayName: string;
  mustChangePassword: boolean;
  roles: Role[];
}

export type LoginOutcome =
  | { ok: true; user: AuthenticatedUser }
  /**
   * `lockedUntil`: the username is locked (now, or by this very failure) until then. Said for a
   * name without an account exactly as for an account, so it reveals nothing about existence.
   */
  | { ok: false; throttled?: false; lockedUntil: Date | null }
  /** Too many failures from this source address: refused before any password is checked. */
  | { ok: false; throttled: true; retryAfterSeconds: number };

export interface LoginOptions {
  /**
   * A second factor is asked next (console sign-in): the password alone resets no failure count,
   * or someone holding it could guess codes forever by signing in again between guesses.
   */
  secondFactorFollows?: boolean;
}

export type PasswordChangeOutcome =
  | { ok: true }
  /** A wrong current password counts toward the lockout like a failed login; refused while locked. */
  | { ok: false; wrongCurrent: true; lockedUntil: Date | null; retryAfterSeconds?: number }
  | { ok: false; wrongCurrent: false; verdict: PasswordVerdict };

/**
 * Checks passwords. Every failed login (unknown user, wrong password, disabled, locked) takes the
 * same path and the same argon2 work, so neither answer nor timing tells them apart.
 *
 * Two throttles: per account (growing delays, then locks; a success resets) and per source
 * address (at most {@link SOURCE_FAILURE_LIMIT} failures in {@link SOURCE_WINDOW_SECONDS} whatever
 * the accounts). While a source is blocked every attempt from it is refused, even one with the
 * right password, and no success resets the count: otherwise the block would still answer
 * "right or wrong". A blocked source says nothing about any account.
 */
@Injectable()
export class LoginService {
  private readonly logger = new Logger(LoginService.name);
  private dummyHash: Promise<string> | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logins: LoginRepository,
    private readonly audit: AuditService,
    private readonly outbox: MailOutbox,
    private readonly factors: MfaRepository,
    private readonly metrics: MetricsRegistry,
  ) {}

  /** `source` is the client address; without one only the per-account throttle applies. */
  async authenticate(
    tenantId: string,
    username: string,
    password: string,
    source?: string,
    options: LoginOptions = {},
  ): Promise<LoginOutcome> {
    const outcome = await this.check(tenantId, username, password, source, options);
    this.metrics.logins.add(outcome.ok ? 'succeeded' : outcome.throttled ? 'throttled' : 'failed');
    return outcome;
  }

  private async check(
    tenantId: string,
    username: string,
    password: string,
    source: string | undefined,
    options: LoginOptions,
  ): Promise<LoginOutcome> {
    const blockedUntil = source ? await this.logins.sourceBlockedUntil(tenantId, source) : null;
    if (blockedUntil) return { ok: false, throttled: true, retryAfterSeconds: secondsUntil(blockedUntil) };
    const candidate = username ? await this.logins.findByUsername(tenantId, username) : null;
    const matches = await this.verify(candidate?.passwordHash ?? null, password);
    // Either lock refuses the password step too: the person learns it there, before any code.
    const lockedUntil = candidate
      ? lockOf(candidate.lockedUntil, candidate.secondFactorLockedUntil)
      : username
        ? await this.logins.nameLockedUntil(tenantId, username)
        : null;
    const failed = !candidate || lockedUntil !== null || candidate.status !== 'active' || !matches;
    if (source) {
      const blocked = failed ? await this.countSourceFailure(tenantId, source) : await this.blockedSince(tenantId, source);
      // Parallel attempts all passed the first check; the failures among them may have blocked the
      // source since. A success counts only if the source is still not blocked.
      if (!failed && blocked) return { ok: false, throttled: true, retryAfterSeconds: secondsUntil(blocked) };
    }
    if (failed) return { ok: false, lockedUntil: await this.countFailure(tenantId, username, candidate, lockedUntil, undefined, source) };
    // With a second factor enrolled only that factor resets the count: the password alone never does.
    if (!options.secondFactorFollows && !(await this.factors.hasConfirmed(candidate.id))) {
      await this.logins.recordSuccess(candidate.id);
    }
    await this.logins.recordSignIn(candidate.id);
    await this.record(candidate, 'user.login.succeeded', {}, source);
    return { ok: true, user: toAuthenticated(candidate) };
  }

  /** A failed sign-in step (password or second factor) of a known account; returns its lock. */
  async recordAccountFailure(candidate: LoginCandidate, action: string, source?: string): Promise<Date | null> {
    if (source) await this.countSourceFailure(candidate.tenantId, source);
    const lockedUntil = future(candidate.lockedUntil);
    return this.countFailure(candidate.tenantId, candidate.username, candidate, lockedUntil, action, source);
  }

  /**
   * A wrong second factor (code, recovery code, passkey) of a known account: counted against the
   * source like any failed sign-in step, and against the account's second-factor count and lock,
   * apart from its password's (SECURITY 58). Returns the lock that now holds, if any.
   */
  async recordSecondFactorFailure(candidate: LoginCandidate, source?: string): Promise<Date | null> {
    if (source) await this.countSourceFailure(candidate.tenantId, source);
    let until = future(candidate.secondFactorLockedUntil);
    if (!until) {
      let lockedFor = 0;
      until = await this.logins.recordSecondFactorFailure(candidate.id, (failures) => (lockedFor = lockSecondsAfter(failures)));
      if (lockedFor >= LOCK_SECONDS) this.metrics.lockouts.add('account');
    }
    await this.record(candidate, 'user.mfa.failed', { locked: until !== null }, source);
    return future(until);
  }

  /** Counts a failure against the account, or against the name when no account has it. */
  private async countFailure(
    tenantId: string,
    username: string,
    candidate: LoginCandidate | null,
    lockedUntil: Date | null,
    action = 'user.login.failed',
    source?: string,
  ): Promise<Date | null> {
    let until = lockedUntil;
    let lockedFor = 0;
    if (!until && candidate) {
      until = await this.logins.recordFailure(candidate.id, (failures) => (lockedFor = lockSecondsAfter(failures)));
      if (lockedFor >= LOCK_SECONDS) this.metrics.lockouts.add('account');
    } else if (!until && username) until = await this.logins.recordNameFailure(tenantId, username, lockSecondsAfter);
    if (candidate) {
      await this.record(candidate, action, { locked: lockedUntil !== null, disabled: candidate.status !== 'active' }, source);
    }
    return future(until);
  }

  private async countSourceFailure(tenantId: string, source: string): Promise<Date | null> {
    const counted = await this.logins.recordSourceFailure(tenantId, source, SOURCE_WINDOW_SECONDS, SOURCE_FAILURE_LIMIT);
    if (counted.failures === SOURCE_FAILURE_LIMIT) {
      this.metrics.lockouts.add('source');
      this.logger.warn(`login source blocked tenant=${tenantId} source=${source.slice(0, 64)} failures=${counted.failures}`);
    }
    return counted.blockedUntil;
  }

  private blockedSince(tenantId: string, source: string): Promise<Date | null> {
    return this.logins.sourceBlockedUntil(tenantId, source);
  }

  /** Deletes source counters whose window and block are over; for a scheduled sweep. */
  purgeStaleSourceThrottles(): Promise<number> {
    return this.logins.purgeStaleSourceThrottles(SOURCE_WINDOW_SECONDS);
  }

  /** Changes a password: needs the current one, applies the policy, hashes with argon2id. */
  async changePassword(
    tenantId: string,
    userId: string,
    input: { current: string; next: string; confirmation: string; tenantSlug: string; source?: string },
  ): Promise<PasswordChangeOutcome> {
    const user = await this.logins.findById(tenantId, userId);
    if (!user || user.status !== 'active') return { ok: false, wrongCurrent: true, lockedUntil: null };
    const blockedUntil = input.source ? await this.logins.sourceBlockedUntil(tenantId, input.source) : null;
    if (blockedUntil) {
      return { ok: false, wrongCurrent: true, lockedUntil: null, retryAfterSeconds: secondsUntil(blockedUntil) };
    }
    const locked = lockOf(user.lockedUntil, user.secondFactorLockedUntil);
    if (locked) {
      await this.record(user, 'user.password.change_failed', { locked: true }, input.source);
      return { ok: false, wrongCurrent: true, lockedUntil: locked };
    }
    if (!(await this.verify(user.passwordHash, input.current))) {
      const lockedUntil = await this.recordAccountFailure(user, 'user.password.change_failed', input.source);
      return { ok: false, wrongCurrent: true, lockedUntil };
    }
    const verdict = this.checkNew(input.next, input.confirmation, {
      tenantSlug: input.tenantSlug,
      username: user.username,
    });
    if (!verdict.ok) return { ok: false, wrongCurrent: false, verdict };
    const passwordHash = await hashPassword(input.next);
    await this.dataSource.transaction(async (em) => {
      await this.logins.changePassword(user.id, passwordHash, em);
      await this.audit.record(em, {
        tenantId,
        actor: actorOf(user),
        action: 'user.password.changed',
        targetType: 'user',
        targetId: user.id,
        details: {},
      });
      const mail = passwordChangedEmail({
        displayName: user.displayName,
        username: user.username,
        changedAt: new Date(),
        resetUrl: `${this.config.publicUrl.replace(/\/+$/, '')}/password-reset`,
      });
      await this.outbox.enqueue(em, { tenantId, to: user.email, mail });
    });
    return { ok: true };
  }

  /** The policy and the confirmation, in the order a person fixes them. */
  checkNew(password: string, confirmation: string, context: PasswordContext): PasswordVerdict {
    const policy = checkPasswordPolicy(password, context);
    return policy.ok ? checkConfirmation(password, confirmation) : policy;
  }

  /** Logins go to the audit log (never the password); the actor is the account tried, from `source`. */
  private record(user: LoginCandidate, action: string, details: Record<string, unknown>, source?: string): Promise<void> {
    return this.audit.record(this.dataSource.manager, {
      tenantId: user.tenantId,
      actor: { ...actorOf(user), sourceAddress: source },
      action,
      targetType: 'user',
      targetId: user.id,
      details,
    });
  }

  private async verify(hash: string | null, password: string): Promise<boolean> {
    this.dummyHash ??= hashPassword('gatehouse dummy password for timing equality');
    const target = hash ?? (await this.dummyHash);
    try {
      const ok = await argon2.verify(target, password);
      return ok && hash !== null;
    } catch {
      return false; // a malformed stored hash verifies nothing
    }
  }
}

/** The time if it lies in the future, else `null`. */
function future(at: Date | null): Date | null {
  return at && at.getTime() > Date.now() ? at : null;
}

function secondsUntil(until: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
}

function actorOf(user: LoginCandidate): Actor {
  return { type: 'user', userId: user.id, clientId: null };
}

function toAuthenticated(user: LoginCandidate): AuthenticatedUser {
  return {
    id: user.id,
    tenantId: user.tenantId,
    username: user.username,
    displayName: user.displayName,
    mustChangePassword: user.mustChangePassword,
    roles: [...user.roles],
  };
}
