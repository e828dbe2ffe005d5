import type { EntityManager } from 'typeorm';
import type { User, UserRepository } from '@gatehouse/accounts';
import type { Actor } from '@gatehouse/audit';
import type { ApiClient } from './api-client.entity.js';
import { ClientError, ClientErrorCode } from './client.errors.js';
import { mayChooseOwner, mayManageClientOf } from './operator-client.policy.js';

/** A new client's owner, if the actor may choose owners ({@link mayChooseOwner}) and give this one a client. */
export async function requireOwnerFor(users: UserRepository, tx: EntityManager, tenantId: string, actor: Actor, ownerUserId: string): Promise<User> {
  if (!mayChooseOwner(actor)) {
    throw new ClientError(ClientErrorCode.OwnerRequiresAdministrator, 'Only an Administrator chooses who owns a client; leave ownerUserId out.');
  }
  const owner = await users.findById(tenantId, ownerUserId, tx);
  if (!owner) throw new ClientError(ClientErrorCode.OwnerNotFound, 'No such owner in this tenant.');
  if (!mayManageClientOf(actor, owner)) throw operatorClientRefused();
  return owner;
}

/** Whether the client's owner holds a role (an operator's client stays active without scopes). */
export async function ownerHasRoles(users: UserRepository, tx: EntityManager, client: ApiClient): Promise<boolean> {
  if (!client.ownerUserId) return false;
  const owner = await users.findById(client.tenantId, client.ownerUserId, tx);
  return (owner?.roles.length ?? 0) > 0;
}

export function operatorClientRefused(): ClientError {
  return new ClientError(
    ClientErrorCode.OwnerPrivileged,
    "This is a staff member's operator client: only its owner or an Administrator manages its credentials and state.",
  );
}
