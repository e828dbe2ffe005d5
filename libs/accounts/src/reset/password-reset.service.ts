import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { SecretHasher, generateOpaqueSecret } from '@gatehouse/crypto';
import { MailOutbox, linkFrom, passwordChangedEmail, selfServiceResetEmail } from '@gatehouse/mail';
import type { AccountLinkPurpose } from '../account-link.entity.js';
import { AccountLinkRepository } from '../account-link.repository.js';
import { AccountError, AccountErrorCode } from '../account.errors.js';
import { ActivationService } from '../activation.service.js';
import { SecondFactorService, type SecondFactorOutcome } from '../mfa/second-factor.service.js';
import { UserRepository } from '../user.repository.js';
import { type ClaimedResetRequest, PasswordResetRepository } from './password-reset.repository.js';

/** A self-service reset link works for an hour (DESIGN §3.3), once, and only the newest one. */
export const RESET_LINK_HOURS = 1;
/** Requests one source address may make per window; then 429 until the window ends. */
export const RESET_SOURCE_LIMIT = 10;
export const RESET_SOURCE_WINDOW_SECONDS = 15 * 60;
/** Links mailed to one address per window; further requests send nothing (the answer stays the same). */
export const RESET_ADDRESS_LIMIT = 3;
export const RESET_ADDRESS_WINDOW_SECONDS = 60 * 60;
/** The longest username or email address the form takes. */
export const RESET_IDENTIFIER_MAX = 254;
/** Requests one worker pass takes at a time. */
export const RESET_BATCH_SIZE = 50;

const SELF_SERVICE: readonly AccountLinkPurpose[] = ['self_service_reset'];

export type ResetRequestOutcome = { accepted: true } | { accepted: false; retryAfterSeconds: number };

export interface ResetLinkLookup {
  userId: string;
  username: string;
  status: 'valid' | 'used' | 'expired';
  expiresAt: Date;
  /**
   * The person holds a role and has a second factor: the new password is set only with it too
   * (SECURITY 58: a password of a person with a role never changes on one factor alone).
   */
  secondFactor: boolean;
}

/** A reset refused before the link was used: the second factor was wrong (or is locked). */
export type ResetCompletion =
  | { ok: true; userId: string; holdsRole: boolean }
  | { ok: false; secondFactor: Exclude<SecondFactorOutcome, { ok: true }> };

/** Why a typed username or address cannot be taken, or `null`: the shape only, never whether it is known. */
export function resetIdentifierProblem(identifier: string): string | null {
  if (!identifier) return 'Enter your username or your email address.';
  if (identifier.length > RESET_IDENTIFIER_MAX || /[\u0000-\u001f\u007f]/.test(identifier)) {
    return `Enter a username or email address of at most ${RESET_IDENTIFIER_MAX} characters.`;
  }
  return null;
}

const fromAddress = (source: string | null): Actor => (source ? { ...SYSTEM_ACTOR, sourceAddress: source } : SYSTEM_ACTOR);

/**
 * "Forgot your password?" for personal accounts. The public form does the same work whether or not
 * it names an account: it counts its source and queues the request, nothing else. The worker then
 * finds the accounts, mails each a link (at most {@link RESET_ADDRESS_LIMIT} per address and hour)
 * and audits it. The link sets a new password once; every session of the account ends; second
 * factors stay as they are.
 */
@Injectable()
export class PasswordResetService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly resets: PasswordResetRepository,
    private readonly links: AccountLinkRepository,
    private readonly users: UserRepository,
    private readonly activation: ActivationService,
    private readonly factors: SecondFactorService,
    private readonly outbox: MailOutbox,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
  ) {}

  /** The public form's one step: the caller checked the shape ({@link resetIdentifierProblem}). */
  async request(tenantId: string, identifier: string, source?: string): Promise<ResetRequestOutcome> {
    if (source) {
      const counted = await this.resets.count(tenantId, `source:${source}`, RESET_SOURCE_WINDOW_SECONDS, RESET_SOURCE_LIMIT);
      if (counted.failures > RESET_SOURCE_LIMIT) return { accepted: false, retryAfterSeconds: secondsUntil(counted.blockedUntil) };
    }
    await this.resets.enqueue(tenantId, identifier, source ?? null);
    return { accepted: true };
  }

  /** One worker pass: handles waiting requests in batches until none is left; returns the links mailed. */
  async processDue(batchSize = RESET_BATCH_SIZE): Promise<number> {
    let mailed = 0;
    for (;;) {
      const batch = await this.dataSource.transaction(async (em) => {
        const claimed = await this.resets.claimDue(em, batchSize);
        let sent = 0;
        for (const row of claimed) if (row.userId && (await this.mailLink(em, row))) sent++;
        return { requests: new Set(claimed.map((row) => row.requestId)).size, sent };
      });
      mailed += batch.sent;
      if (batch.requests < batchSize) return mailed;
    }
  }

  /** What a link stands for (the GET of its page: consumes nothing). Unknown → LinkNotFound. */
  async lookup(tenantId: string, token: string): Promise<ResetLinkLookup> {
    const link = await this.links.findByTokenHash(tenantId, this.hasher.hash(token), undefined, SELF_SERVICE);
    const user = link ? await this.users.findById(tenantId, link.userId) : null;
    if (!link || !user || user.status !== 'active') throw new AccountError(AccountErrorCode.LinkNotFound, 'No such link.');
    const status = link.usedAt ? 'used' : link.expiresAt.getTime() <= Date.now() ? 'expired' : 'valid';
    const [factor] = user.roles.length ? await this.factors.summaries(tenantId, [user.id]) : [];
    return { userId: user.id, username: user.username, status, expiresAt: link.expiresAt, secondFactor: Boolean(factor?.totpConfirmedAt) };
  }

  /**
   * Uses the link once and sets the new password (validated and hashed by the caller), in one
   * transaction: the change time moves, so every session of the account (Web UI and console) is
   * dead; the other links die; the owner gets the "password changed" mail. Second factors stay;
   * a person with a role who has one proves it first (`code`), or nothing is used or changed.
   */
  async complete(tenantId: string, token: string, passwordHash: string, input: { code?: string; source?: string } = {}): Promise<ResetCompletion> {
    const link = await this.lookup(tenantId, token);
    if (link.status === 'valid' && link.secondFactor) {
      const outcome = await this.factors.verify(tenantId, link.userId, input.code ?? '', input.source);
      if (!outcome.ok) return { ok: false, secondFactor: outcome };
    }
    return { ok: true, ...(await this.setPassword(tenantId, token, passwordHash, input.source)) };
  }

  private setPassword(tenantId: string, token: string, passwordHash: string, source?: string): Promise<{ userId: string; holdsRole: boolean }> {
    const tokenHash = this.hasher.hash(token);
    return this.dataSource.transaction(async (em) => {
      const link = await this.links.consume(em, tenantId, tokenHash, SELF_SERVICE);
      if (!link) throw await this.whyNotUsable(em, tenantId, tokenHash);
      const user = await this.users.findById(tenantId, link.userId, em, true);
      if (user?.status !== 'active') throw new AccountError(AccountErrorCode.LinkNotFound, 'No such link.');
      await this.activation.setChosenPassword(em, tenantId, user.id, passwordHash, 'self_service_reset', source);
      const mail = passwordChangedEmail({
        displayName: user.displayName,
        username: user.username,
        changedAt: new Date(),
        resetUrl: `${this.config.publicUrl.replace(/\/+$/, '')}/password-reset`,
      });
      await this.outbox.enqueue(em, { tenantId, to: user.email, mail });
      return { userId: user.id, holdsRole: user.roles.length > 0 };
    });
  }

  /** Drops throttle counters whose window and block are over; for the worker's sweep. */
  purgeStaleThrottles(): Promise<number> {
    return this.resets.purgeStaleThrottles(Math.max(RESET_SOURCE_WINDOW_SECONDS, RESET_ADDRESS_WINDOW_SECONDS));
  }

  /** A new link for one account (older self-service links die), unless its address had enough this hour. */
  private async mailLink(em: EntityManager, row: ClaimedResetRequest): Promise<boolean> {
    const user = { id: row.userId!, username: row.username!, email: row.email!, displayName: row.displayName! };
    const event = { tenantId: row.tenantId, actor: fromAddress(row.source), targetType: 'user', targetId: user.id };
    const address = `address:${user.email.toLowerCase()}`;
    const counted = await this.resets.count(row.tenantId, address, RESET_ADDRESS_WINDOW_SECONDS, RESET_ADDRESS_LIMIT, em);
    if (counted.failures > RESET_ADDRESS_LIMIT) {
      await this.audit.record(em, { ...event, action: 'user.password.reset_throttled', details: { requests: counted.failures } });
      return false;
    }
    await this.links.invalidatePurposes(em, row.tenantId, user.id, SELF_SERVICE);
    const token = generateOpaqueSecret();
    const link = { tenantId: row.tenantId, userId: user.id, purpose: 'self_service_reset' as const, tokenHash: this.hasher.hash(token) };
    const expiresAt = await this.links.insert(em, link, RESET_LINK_HOURS);
    const href = linkFrom(this.config.publicUrl, 'password-reset', token);
    const mail = selfServiceResetEmail({ displayName: user.displayName, username: user.username, link: href, expiresAt });
    await this.outbox.enqueue(em, { tenantId: row.tenantId, to: user.email, mail });
    await this.audit.record(em, { ...event, action: 'user.password.reset_requested', details: { expiresAt } });
    return true;
  }

  private async whyNotUsable(em: EntityManager, tenantId: string, tokenHash: Buffer): Promise<AccountError> {
    const link = await this.links.findByTokenHash(tenantId, tokenHash, em, SELF_SERVICE);
    if (!link) return new AccountError(AccountErrorCode.LinkNotFound, 'No such link.');
    if (link.usedAt) return new AccountError(AccountErrorCode.LinkUsed, 'This link has already been used or replaced.');
    return new AccountError(AccountErrorCode.LinkExpired, 'This link has expired.');
  }
}

function secondsUntil(until: Date | null): number {
  return until ? Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000)) : 60;
}
