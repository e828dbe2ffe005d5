import type { Role } from '@gatehouse/accounts';
import type { Actor } from '@gatehouse/audit';

/** The owner of a client as the rule needs it. */
export interface ClientOwner {
  id: string;
  roles: readonly Role[];
}

/**
 * An operator client is owned by a staff user (one holding at least one role): its tokens carry
 * its owner's admin permissions, and the audit log names its owner for everything it does.
 */
export function isOperatorClient(owner: ClientOwner | null): owner is ClientOwner {
  return owner !== null && owner.roles.length > 0;
}

/**
 * Who may create an operator client, mint, revoke or hand over its credentials, or disable or
 * enable it (DESIGN §4, SECURITY.md 50): its owner, an Administrator (the holder of
 * `Tenant.Manage`), or the system — nobody else, not even a peer with the same roles, who would
 * otherwise act in the owner's name. Any other client (a partner's) is managed by whoever holds
 * the operation's permission.
 */
export function mayManageClientOf(actor: Actor, owner: ClientOwner | null): boolean {
  if (!isOperatorClient(owner)) return true;
  if (actor.type === 'system') return true;
  if (actor.type === 'user' && actor.userId === owner.id) return true;
  return (actor.permissions ?? []).includes('Tenant.Manage');
}

/**
 * Who may set a client's owner, on creation or any later change: an Administrator or the system.
 * A client owned by a person acts in their name and, once they hold a role, with their admin
 * permissions; so nobody else puts a client in someone's name — not even for a person without a
 * role, who may be given one later (SECURITY 55).
 */
export function mayChooseOwner(actor: Actor): boolean {
  return actor.type === 'system' || (actor.permissions ?? []).includes('Tenant.Manage');
}
