import type { EntityManager } from 'typeorm';
import type { Actor } from '@gatehouse/audit';
import type { User } from './user.entity.js';

/** How a console activation link reaches the person: mailed (console, REST) or returned to be printed (CLI). */
export type LinkDelivery = 'mail' | 'return';

/** A client the account owns, did not create itself, and whose credentials were therefore revoked. */
export interface ResetClient {
  clientId: string;
  displayName: string;
  secretsRevoked: number;
  certificatesRemoved: number;
  federatedCredentialsRemoved: number;
  handoversRevoked: number;
}

/**
 * What giving an existing account its first role reset (SECURITY 55). Whoever set the account up
 * (a contact person, say) may know its password, hold its links, or hold credentials of clients
 * made in its name; a role would turn all of that into staff access. So the account starts
 * afresh: the new console activation link is the only way in. The Administrator is shown this.
 */
export interface AccountReset {
  /** It had a password, which no longer works. */
  passwordRemoved: boolean;
  /** Unused activation, password-reset and console invitation links that no longer work. */
  linksInvalidated: number;
  /** It had a second factor (authenticator app, recovery codes, passkeys), now removed. */
  secondFactorsRemoved: boolean;
  sessionsEnded: number;
  /** Clients it owns but did not create itself that had something to take: secrets revoked, certificates and federated credentials removed, pending handovers revoked. */
  clients: ResetClient[];
  /** Pending handovers revoked: addressed to it (whatever the client), or of one of `clients`. */
  handoversRevoked: number;
  /** The new console activation link: mailed to the person, or returned (once) for the caller to print. */
  activation: { delivery: LinkDelivery; expiresAt: Date; url?: string };
}

/** An account that held no role is being given one, inside the transaction that gives it. */
export interface FirstRoleGrant {
  tenantId: string;
  actor: Actor;
  /** The account as it is after the change (its new roles). */
  user: User;
  delivery: LinkDelivery;
}

/** The use case that starts an account afresh; it spans contexts, so provisioning registers it. */
export type FirstRoleHook = (em: EntityManager, grant: FirstRoleGrant) => Promise<AccountReset>;

const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What was reset, in sentences for the Administrator (console result page, command line): that
 * the account existed, then one line per thing that no longer works.
 */
export function accountResetLines(reset: AccountReset): string[] {
  const lines = [
    reset.passwordRemoved ? 'Its password no longer works.' : 'It had no password.',
    `${counted(reset.linksInvalidated, 'unused link')} (activation, password reset, console invitation) no longer ${reset.linksInvalidated === 1 ? 'works' : 'work'}.`,
  ];
  if (reset.secondFactorsRemoved) lines.push('Its second factor was removed: the person sets up a new one.');
  lines.push(`${counted(reset.sessionsEnded, 'session')} ended.`);
  for (const client of reset.clients) {
    const taken = [counted(client.secretsRevoked, 'secret') + ' revoked', counted(client.certificatesRemoved, 'certificate') + ' removed'];
    if (client.federatedCredentialsRemoved) taken.push(counted(client.federatedCredentialsRemoved, 'federated credential') + ' removed');
    if (client.handoversRevoked) taken.push(counted(client.handoversRevoked, 'pending handover') + ' revoked');
    lines.push(`Client "${client.displayName}" (${client.clientId}), made in its name by someone else: ${taken.join(', ')}.`);
  }
  const other = reset.handoversRevoked - reset.clients.reduce((sum, client) => sum + client.handoversRevoked, 0);
  if (other) lines.push(`${counted(other, 'pending handover')} addressed to it revoked.`);
  return lines;
}
