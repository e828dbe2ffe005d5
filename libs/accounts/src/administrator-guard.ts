import type { EntityManager } from 'typeorm';
import { AccountError, AccountErrorCode } from './account.errors.js';
import type { User } from './user.entity.js';
import type { UserRepository } from './user.repository.js';

/** Refuses a change that would leave the tenant without an active Administrator. */
export async function keepAnAdministrator(users: UserRepository, em: EntityManager, user: User): Promise<void> {
  if (user.status !== 'active' || !user.roles.includes('Administrator')) return;
  if ((await users.countActiveAdministrators(em, user.tenantId, user.id)) > 0) return;
  throw new AccountError(AccountErrorCode.LastAdministrator, 'The tenant would be left without an active Administrator.');
}
