import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '@gatehouse/audit';
import { SecretHasher, generateOpaqueSecret } from '@gatehouse/crypto';
import type { AccountLinkPurpose } from './account-link.entity.js';
import { AccountLinkRepository } from './account-link.repository.js';
import { AccountError, AccountErrorCode } from './account.errors.js';
import type { User } from './user.entity.js';
import { UserRepository } from './user.repository.js';

/** A staff member's first console sign-in link lives this long (DESIGN §7). */
export const CONSOLE_LINK_HOURS = 72;
const CONSOLE: readonly AccountLinkPurpose[] = ['console_activation'];

export interface ConsoleLinkState {
  userId: string;
  username: string;
  displayName: string;
  usable: boolean;
  /** Why not, when not usable. */
  refusal?: AccountErrorCode.LinkUsed | AccountErrorCode.LinkExpired;
}

/**
 * The one-time link of a staff member's first console sign-in (`/console/activate/{token}`): the
 * person chooses a password there and enrols a second factor right after. Stored like every link
 * token (HMAC with SECRET_PEPPER); the Web UI's `/activate` does not take it.
 */
@Injectable()
export class ConsoleActivationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly links: AccountLinkRepository,
    private readonly users: UserRepository,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
  ) {}

  /** In the caller's transaction: the person's older links die, a new one is written. Token returned once. */
  async issue(em: EntityManager, user: Pick<User, 'id' | 'tenantId'>): Promise<{ token: string; expiresAt: Date }> {
    await this.links.invalidateAll(em, user.tenantId, user.id);
    const token = generateOpaqueSecret();
    const link = { tenantId: user.tenantId, userId: user.id, purpose: 'console_activation' as const, tokenHash: this.hasher.hash(token) };
    const expiresAt = await this.links.insert(em, link, CONSOLE_LINK_HOURS);
    return { token, expiresAt };
  }

  /** In the caller's transaction: every link of the person dies (an invitation revoked). */
  async revoke(em: EntityManager, user: Pick<User, 'id' | 'tenantId'>): Promise<void> {
    await this.links.invalidateAll(em, user.tenantId, user.id);
  }

  /** What a link stands for, consuming nothing (mail scanners and reloads only look). */
  async state(tenantId: string, token: string): Promise<ConsoleLinkState> {
    const link = await this.links.findByTokenHash(tenantId, this.hasher.hash(token), undefined, CONSOLE);
    const user = link ? await this.users.findById(tenantId, link.userId) : null;
    if (!link || !user || user.status !== 'active') throw new AccountError(AccountErrorCode.LinkNotFound, 'No such link.');
    const refusal = link.usedAt ? AccountErrorCode.LinkUsed : link.expiresAt.getTime() <= Date.now() ? AccountErrorCode.LinkExpired : undefined;
    return { userId: user.id, username: user.username, displayName: user.displayName, usable: !refusal, refusal };
  }

  /** Uses the link once and sets the password (validated and hashed by the caller); one transaction. */
  complete(tenantId: string, token: string, passwordHash: string): Promise<{ userId: string }> {
    const tokenHash = this.hasher.hash(token);
    return this.dataSource.transaction(async (em) => {
      const link = await this.links.consume(em, tenantId, tokenHash, CONSOLE);
      if (!link) throw new AccountError(AccountErrorCode.LinkUsed, 'This link has already been used or has expired.');
      await this.links.setPassword(em, tenantId, link.userId, passwordHash, false);
      await this.links.recordSignIn(em, tenantId, link.userId); // the link signs them in: "Last sign-in" shows it
      await this.audit.record(em, {
        tenantId,
        actor: { type: 'user', userId: link.userId, clientId: null },
        action: 'user.password.set_by_link',
        targetType: 'user',
        targetId: link.userId,
        details: { purpose: 'console_activation' },
      });
      return { userId: link.userId };
    });
  }
}
