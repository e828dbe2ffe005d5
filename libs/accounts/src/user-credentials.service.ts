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
import { generateInitialPassword, mayManageUser, type InitialPasswordMode } from './user.service.js';
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

  private async requireManageable(em: EntityManager, tenantId: string, actor: Actor, id: string): Promise<User> {
    const user = await this.users.findById(tenantId, id, em, true);
    if (!user) throw new AccountError(AccountErrorCode.NotFound, 'No such user.');
    if (!mayManageUser(actor, user)) {
      throw new AccountError(AccountErrorCode.UserPrivileged, 'This user holds permissions you do not; only an Administrator manages them.');
    }
    return user;
  }

  private record(em: EntityManager, tenantId: string, actor: Actor, action: string, user: User, details: Record<string, unknown>) {
    return this.audit.record(em, { tenantId, actor, action, targetType: 'user', targetId: user.id, details });
  }
}
