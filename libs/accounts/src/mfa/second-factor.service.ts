import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { KeyEncryptor, SecretHasher } from '@gatehouse/crypto';
import { type LoginCandidate, LoginRepository, lockOf } from '../login.repository.js';
import { LoginService } from '../login.service.js';
import type { User } from '../user.entity.js';
import { mayManageUser } from '../user.service.js';
import { type FactorSummary, MfaRepository } from './mfa.repository.js';
import { MfaError, MfaErrorCode } from './mfa.errors.js';
import { newRecoveryCodes, normalizeRecoveryCode } from './recovery-codes.js';
import type { TotpFactor } from './totp-factor.entity.js';
import { base32Of, matchingStep, newTotpSeed, totpUri } from './totp.js';

/** What an authenticator app needs: the seed as text and as the URI its QR code carries. */
export interface TotpEnrolment {
  secret: string;
  uri: string;
}

export type SecondFactorOutcome =
  | { ok: true; method: 'totp' | 'recovery_code' | 'passkey'; recoveryCodesLeft?: number }
  /**
   * Wrong, replayed or unusable code (counted toward the lockout), or the account is locked, or
   * (`throttled`) the source address is blocked by the sign-in throttle: then nothing is checked.
   */
  | { ok: false; lockedUntil: Date | null; throttled?: boolean };

export type EnrolmentOutcome = { ok: true; recoveryCodes: string[] } | { ok: false; lockedUntil: Date | null };

const selfActor = (userId: string): Actor => ({ type: 'user', userId, clientId: null });

/**
 * Staff second factors: a TOTP authenticator (seed sealed at rest, each code accepted once, ±1
 * step of skew) and ten single-use recovery codes (stored hashed, shown once). A wrong code counts
 * toward a lockout of its own, apart from wrong passwords, which no password change clears; a
 * right one resets both counts (SECURITY 58).
 */
@Injectable()
export class SecondFactorService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly factors: MfaRepository,
    private readonly logins: LoginRepository,
    private readonly login: LoginService,
    private readonly encryptor: KeyEncryptor,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
  ) {}

  /** The person's pending authenticator, created at the first ask: the same seed until confirmed. */
  async enrolment(tenantId: string, user: { id: string; username: string }, issuer: string): Promise<TotpEnrolment> {
    let factor = await this.factors.findTotp(tenantId, user.id);
    if (factor?.confirmedAt) throw new MfaError(MfaErrorCode.AlreadyEnrolled, 'An authenticator app is already set up.');
    if (!factor) {
      await this.factors.savePending(tenantId, user.id, this.seal(user.id, newTotpSeed()));
      factor = await this.factors.findTotp(tenantId, user.id);
    }
    const seed = this.seedOf(factor!);
    return { secret: base32Of(seed), uri: totpUri(seed, issuer, user.username) };
  }

  /** The first code from the app confirms the authenticator; the ten recovery codes are returned once. */
  async confirmEnrolment(tenantId: string, userId: string, code: string, source?: string): Promise<EnrolmentOutcome> {
    const { candidate, lockedUntil } = await this.usableAccount(tenantId, userId);
    if (!candidate) return { ok: false, lockedUntil };
    const factor = await this.factors.findTotp(tenantId, userId);
    if (!factor || factor.confirmedAt) throw new MfaError(MfaErrorCode.NoPendingEnrolment, 'There is no authenticator waiting to be confirmed.');
    const step = matchingStep(this.seedOf(factor), code.trim());
    if (step === null) return { ok: false, lockedUntil: await this.login.recordSecondFactorFailure(candidate, source) };
    const recoveryCodes = newRecoveryCodes();
    await this.dataSource.transaction(async (em) => {
      if (!(await this.factors.confirm(em, factor.id))) {
        throw new MfaError(MfaErrorCode.NoPendingEnrolment, 'The authenticator was confirmed meanwhile.');
      }
      await this.factors.consumeStep(factor.id, step, em);
      await this.factors.replaceRecoveryCodes(em, tenantId, userId, recoveryCodes.map((c) => this.hashCode(c)));
      await this.record(em, tenantId, selfActor(userId), 'user.mfa.enrolled', userId, { method: 'totp' });
    });
    await this.logins.recordSecondFactorSuccess(userId);
    return { ok: true, recoveryCodes };
  }

  /** Checks a code from the authenticator app or a recovery code (each usable once). */
  async verify(tenantId: string, userId: string, typed: string, source?: string): Promise<SecondFactorOutcome> {
    if (source && (await this.logins.sourceBlockedUntil(tenantId, source))) return { ok: false, lockedUntil: null, throttled: true };
    const { candidate, lockedUntil } = await this.usableAccount(tenantId, userId);
    if (!candidate) return { ok: false, lockedUntil };
    const accepted = await this.accept(tenantId, userId, typed.trim());
    if (!accepted) return { ok: false, lockedUntil: await this.login.recordSecondFactorFailure(candidate, source) };
    await this.logins.recordSecondFactorSuccess(userId);
    await this.record(this.dataSource.manager, tenantId, selfActor(userId), 'user.mfa.succeeded', userId, accepted);
    return { ok: true, ...accepted };
  }

  /** New recovery codes for oneself; every older one stops working. Returned once. */
  async regenerateRecoveryCodes(tenantId: string, actor: Actor, userId: string): Promise<string[]> {
    if (actor.userId !== userId) throw new MfaError(MfaErrorCode.NotPermitted, 'Only the person themselves regenerates recovery codes.');
    const factor = await this.factors.findTotp(tenantId, userId);
    if (!factor?.confirmedAt) throw new MfaError(MfaErrorCode.NotEnrolled, 'Set up an authenticator app first.');
    const codes = newRecoveryCodes();
    await this.dataSource.transaction(async (em) => {
      await this.factors.replaceRecoveryCodes(em, tenantId, userId, codes.map((c) => this.hashCode(c)));
      await this.record(em, tenantId, actor, 'user.mfa.recovery_codes_regenerated', userId, {});
    });
    return codes;
  }

  /**
   * Removes every second factor of a person (break-glass, or an Administrator for someone who
   * lost their phone): they enrol again at their next sign-in. Inside the caller's transaction.
   */
  async reset(em: EntityManager, tenantId: string, actor: Actor, target: Pick<User, 'id' | 'roles'>): Promise<void> {
    const administrator = actor.type === 'system' || (actor.permissions ?? []).includes('Tenant.Manage');
    if (!administrator || !mayManageUser(actor, target)) {
      throw new MfaError(MfaErrorCode.NotPermitted, "Only an Administrator resets a person's second factor.");
    }
    const removed = await this.factors.removeAll(em, tenantId, target.id);
    await this.record(em, tenantId, actor, 'user.mfa.reset', target.id, { authenticatorRemoved: removed > 0 });
  }

  summaries(tenantId: string, userIds: string[]): Promise<FactorSummary[]> {
    return this.factors.summaries(tenantId, userIds);
  }

  private async accept(tenantId: string, userId: string, code: string): Promise<Omit<SecondFactorOutcome & { ok: true }, 'ok'> | null> {
    if (/^\d{6}$/.test(code)) {
      const factor = await this.factors.findTotp(tenantId, userId);
      const step = factor?.confirmedAt ? matchingStep(this.seedOf(factor), code) : null;
      return step !== null && (await this.factors.consumeStep(factor!.id, step)) ? { method: 'totp' } : null;
    }
    const normalized = normalizeRecoveryCode(code);
    if (!normalized) return null;
    const left = await this.factors.useRecoveryCode(tenantId, userId, this.hashCode(normalized));
    return left === null ? null : { method: 'recovery_code', recoveryCodesLeft: left };
  }

  /** The account if it may use a factor now; otherwise its lock, if that is why not. */
  private async usableAccount(
    tenantId: string,
    userId: string,
  ): Promise<{ candidate: LoginCandidate | null; lockedUntil: Date | null }> {
    const candidate = await this.logins.findById(tenantId, userId);
    if (!candidate || candidate.status !== 'active') return { candidate: null, lockedUntil: null };
    const locked = lockOf(candidate.lockedUntil, candidate.secondFactorLockedUntil);
    return locked ? { candidate: null, lockedUntil: locked } : { candidate, lockedUntil: null };
  }

  private seal(userId: string, seed: Buffer): Buffer {
    return this.encryptor.encrypt(seed, `totp:${userId}`);
  }

  private seedOf(factor: TotpFactor): Buffer {
    return this.encryptor.decrypt(factor.sealedSecret, `totp:${factor.userId}`);
  }

  private hashCode(code: string): Buffer {
    return this.hasher.hash(`recovery-code:${normalizeRecoveryCode(code)}`);
  }

  private record(em: EntityManager, tenantId: string, actor: Actor, action: string, userId: string, details: object) {
    return this.audit.record(em, { tenantId, actor, action, targetType: 'user', targetId: userId, details: { ...details } });
  }
}
