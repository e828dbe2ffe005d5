import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import argon2 from 'argon2';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { announceChange } from '@gatehouse/database';
import { AccountError, AccountErrorCode } from './account.errors.js';
import { ActivationService } from './activation.service.js';
import { AccountLinkRepository } from './account-link.repository.js';
import type { User } from './user.entity.js';
import { UserRepository } from './user.repository.js';
import type { AccountReset } from './first-role.js';
import { MfaRepository } from './mfa/mfa.repository.js';
import { generateInitialPassword, mayManageUser, refuseGeneratedForStaff, staffRefusal, type InitialPasswordMode } from './user.service.js';
import { type UserView, toUserView } from './user.view.js';

export type ResetUser = UserView & { initialPassword?: string };

/** Administrative credential actions: unlock and password reset. */
@Injectable()
export class UserCredentialsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UserRepository,
    private readonly credentials: AccountLinkRepository,
    private readonly activation: ActivationService,
    private readonly factors: MfaRepository,
    private readonly audit: AuditService,
  ) {}

  /** Clears a lockout: the failure count and the lock time. */
  unlock(tenantId: string, actor: Actor, id: string): Promise<UserView> {
    return this.dataSource.transaction(async (em) => {
      const user = await this.requireManageable(em, tenantId, actor, id);
      await this.credentials.unlock(em, tenantId, user.id);
      await this.record(em, tenantId, actor, 'user.unlocked', user, { lockedUntil: user.lockedUntil, failedLoginCount: user.failedLoginCount });
      return toUserView((await this.users.findById(tenantId, id, em))!);
    });
  }

  /**
   * The old password dies at once. `generate`: a new one-time password, shown once, to be changed
   * at the next login. `activation-link`: no password until the user sets one with the mailed link.
   */
  async resetPassword(tenantId: string, actor: Actor, id: string, mode: InitialPasswordMode): Promise<ResetUser> {
    const initialPassword = mode === 'generate' ? generateInitialPassword() : undefined;
    const passwordHash = initialPassword ? await argon2.hash(initialPassword, { type: argon2.argon2id }) : null;
    return this.dataSource.transaction(async (em) => {
      const user = await this.requireManageable(em, tenantId, actor, id);
      refuseGeneratedForStaff(user.roles, mode, 'mode');
      const { everHadPassword } = await this.credentials.passwordState(em, tenantId, user.id);
      await this.credentials.invalidateAll(em, tenantId, user.id);
      await this.credentials.setPassword(em, tenantId, user.id, passwordHash, mode === 'generate');
      // Someone who never had a password gets the activation mail, not "your password was reset".
      if (mode === 'activation-link') await this.activation.issue(em, user, everHadPassword ? 'reset' : 'activation');
      await this.record(em, tenantId, actor, 'user.password.reset', user, { mode });
      await announceChange(em, 'user', tenantId, user.id);
      const view = toUserView((await this.users.findById(tenantId, id, em))!);
      return initialPassword ? { ...view, initialPassword } : view;
    });
  }

  /**
   * The account's own part of starting afresh (inside the caller's transaction, which gives it its
   * first role): no password, no usable link, no second factor. Audited; nothing is mailed here.
   */
  async startAfresh(
    em: EntityManager,
    tenantId: string,
    actor: Actor,
    user: User,
  ): Promise<Pick<AccountReset, 'passwordRemoved' | 'linksInvalidated' | 'secondFactorsRemoved'>> {
    const { hasPassword } = await this.credentials.passwordState(em, tenantId, user.id);
    const linksInvalidated = await this.credentials.invalidateAll(em, tenantId, user.id);
    await this.credentials.setPassword(em, tenantId, user.id, null, false);
    await this.credentials.unlock(em, tenantId, user.id);
    const secondFactorsRemoved = (await this.factors.removeAll(em, tenantId, user.id)) > 0;
    const reset = { passwordRemoved: hasPassword, linksInvalidated, secondFactorsRemoved };
    // What went, named in values: the audit redacts keys that say "password".
    const removed = [...(hasPassword ? ['password'] : []), ...(secondFactorsRemoved ? ['second_factor'] : [])];
    await this.record(em, tenantId, actor, 'user.credentials.reset', user, { reason: 'first_role', removed, linksInvalidated });
    return reset;
  }

  private async requireManageable(em: EntityManager, tenantId: string, actor: Actor, id: string): Promise<User> {
    const user = await this.users.findById(tenantId, id, em, true);
    if (!user) throw new AccountError(AccountErrorCode.NotFound, 'No such user.');
    if (!mayManageUser(actor, user)) throw staffRefusal();
    return user;
  }

  private record(em: EntityManager, tenantId: string, actor: Actor, action: string, user: User, details: Record<string, unknown>) {
    return this.audit.record(em, { tenantId, actor, action, targetType: 'user', targetId: user.id, details });
  }
}
