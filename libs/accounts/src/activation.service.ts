import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { SecretHasher, generateOpaqueSecret } from '@gatehouse/crypto';
import { MailOutbox, activationEmail, linkFrom, passwordResetEmail } from '@gatehouse/mail';
import type { AccountLinkPurpose } from './account-link.entity.js';
import { AccountError, AccountErrorCode } from './account.errors.js';
import { AccountLinkRepository, type PasswordState } from './account-link.repository.js';
import type { User } from './user.entity.js';
import { UserRepository } from './user.repository.js';

/** Activation and reset links set a password: they live 24 hours at most (NIST 800-63B-4). */
export const ACCOUNT_LINK_HOURS = 24;

export interface ActivationLookup {
  userId: string;
  username: string;
  displayName: string;
  purpose: AccountLinkPurpose;
  status: 'valid' | 'used' | 'expired';
  expiresAt: Date;
}

/**
 * Called inside the transaction in which a user sets a password with a link. Use cases that span
 * contexts (an approved access request is fulfilled by the activation) register here.
 */
export type PasswordSetHook = (em: EntityManager, link: { tenantId: string; userId: string; purpose: string; actor: Actor }) => Promise<void>;

/** Single-use links that let a user choose a password (activation and reset). */
@Injectable()
export class ActivationService {
  private readonly passwordSetHooks: PasswordSetHook[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credentials: AccountLinkRepository,
    private readonly users: UserRepository,
    private readonly outbox: MailOutbox,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
  ) {}

  onPasswordSet(hook: PasswordSetHook): void {
    this.passwordSetHooks.push(hook);
  }

  /** Inside the caller's transaction: kills older links, writes a new one and queues its mail. */
  async issue(em: EntityManager, user: User, purpose: AccountLinkPurpose): Promise<void> {
    await this.credentials.invalidateAll(em, user.tenantId, user.id);
    const token = generateOpaqueSecret();
    const link = { tenantId: user.tenantId, userId: user.id, purpose, tokenHash: this.hasher.hash(token) };
    const expiresAt = await this.credentials.insert(em, link, ACCOUNT_LINK_HOURS);
    const input = { displayName: user.displayName, username: user.username, link: linkFrom(this.config.publicUrl, 'activate', token), expiresAt };
    const mail = purpose === 'activation' ? activationEmail(input) : passwordResetEmail(input);
    await this.outbox.enqueue(em, { tenantId: user.tenantId, to: user.email, mail });
  }

  /** What a link stands for (the GET of the page: consumes nothing). Unknown → LinkNotFound. */
  async lookupActivation(tenantId: string, token: string): Promise<ActivationLookup> {
    const link = await this.credentials.findByTokenHash(tenantId, this.hasher.hash(token));
    const user = link ? await this.users.findById(tenantId, link.userId) : null;
    if (!link || !user) throw linkNotFound();
    const status = link.usedAt ? 'used' : link.expiresAt.getTime() <= Date.now() ? 'expired' : 'valid';
    return { userId: user.id, username: user.username, displayName: user.displayName, purpose: link.purpose, status, expiresAt: link.expiresAt };
  }

  /**
   * Consumes the link and sets the password (already validated and hashed by the caller) in one
   * transaction: of two concurrent uses exactly one succeeds.
   */
  completeActivation(tenantId: string, token: string, passwordHash: string, sourceAddress?: string): Promise<{ userId: string }> {
    const tokenHash = this.hasher.hash(token);
    return this.dataSource.transaction(async (em) => {
      const link = await this.credentials.consume(em, tenantId, tokenHash);
      if (!link) throw await this.whyNotUsable(em, tenantId, tokenHash);
      await this.setChosenPassword(em, tenantId, link.userId, passwordHash, link.purpose, sourceAddress);
      return { userId: link.userId };
    });
  }

  /**
   * Inside the caller's transaction (which consumes or checks the link): sets the password a person
   * chose through a link mailed to them (validated and hashed by the caller), kills their other
   * activation and reset links, and audits it with the kind of link (`purpose`) and the address
   * the person came from. `signsIn`: the link signs the person in too (their last sign-in is now).
   */
  async setChosenPassword(
    em: EntityManager,
    tenantId: string,
    userId: string,
    passwordHash: string,
    purpose: string,
    sourceAddress?: string,
    signsIn = false,
  ): Promise<void> {
    await this.credentials.invalidateAll(em, tenantId, userId);
    await this.credentials.setPassword(em, tenantId, userId, passwordHash, false);
    if (signsIn) await this.credentials.recordSignIn(em, tenantId, userId);
    const actor: Actor = { type: 'user', userId, clientId: null, ...(sourceAddress ? { sourceAddress } : {}) };
    await this.audit.record(em, {
      tenantId,
      actor,
      action: 'user.password.set_by_link',
      targetType: 'user',
      targetId: userId,
      details: { purpose },
    });
    for (const hook of this.passwordSetHooks) await hook(em, { tenantId, userId, purpose, actor });
  }

  /** Whether the user can log in with a password now, and whether they ever had one. */
  passwordState(tenantId: string, userId: string, em: EntityManager = this.dataSource.manager): Promise<PasswordState> {
    return this.credentials.passwordState(em, tenantId, userId);
  }

  private async whyNotUsable(em: EntityManager, tenantId: string, tokenHash: Buffer): Promise<AccountError> {
    const link = await this.credentials.findByTokenHash(tenantId, tokenHash, em);
    if (!link) return linkNotFound();
    if (link.usedAt) return new AccountError(AccountErrorCode.LinkUsed, 'This link has already been used.');
    return new AccountError(AccountErrorCode.LinkExpired, 'This link has expired.');
  }
}

function linkNotFound(): AccountError {
  return new AccountError(AccountErrorCode.LinkNotFound, 'No such link.');
}
