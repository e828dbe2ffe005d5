import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConsoleActivationService, LoginService, type Role, hashPassword, permissionsOf } from '@gatehouse/accounts';
import { type Actor, SYSTEM_ACTOR } from '@gatehouse/audit';
import { StaffAccessService } from '@gatehouse/provisioning';
import type { Tenant } from '@gatehouse/tenants';
import { DEMO_STAFF, demoEmail } from './demo-content.js';

/** Whom to sign in as: what the demo prints, and keeps in `DATA_DIR/demo.json` (mode 0600). */
export interface DemoSignIn {
  role: Role;
  username: string;
  email: string;
  displayName: string;
  password: string;
}

export interface DemoStaff {
  signIns: DemoSignIn[];
  /** Each person as the use cases see them when they act in the console. */
  actors: Record<Role, Actor>;
}

/** Letters and digits that read unambiguously ("l", "1", "o", "0" left out). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A random password of four groups of four (about 79 bits): `k7rm-2xqa-…`, easy to copy. */
export function demoPassword(): string {
  const group = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return [group(), group(), group(), group()].join('-');
}

/**
 * One staff member per role, set up as people do it: the system invites the Administrator (as
 * `npm start` does), the Administrator invites the others, and each one opens their one-time
 * console link and chooses a password (checked by the same policy as the activation page). The
 * authenticator app is left to the first sign-in, where the console asks for it.
 */
@Injectable()
export class DemoStaffService {
  constructor(
    private readonly staff: StaffAccessService,
    private readonly activation: ConsoleActivationService,
    private readonly logins: LoginService,
  ) {}

  async create(tenant: Tenant): Promise<DemoStaff> {
    const signIns: Array<DemoSignIn & { userId: string }> = [];
    const actors = {} as Record<Role, Actor>;
    for (const person of DEMO_STAFF) {
      const inviter = actors.Administrator ?? SYSTEM_ACTOR;
      const signIn = await this.invite(tenant, inviter, { ...person, email: demoEmail(person.username) });
      signIns.push(signIn);
      actors[person.role] = { type: 'user', userId: signIn.userId, clientId: null, permissions: permissionsOf([person.role]) };
    }
    return { signIns: signIns.map(({ userId: _id, ...signIn }) => signIn), actors };
  }

  private async invite(tenant: Tenant, inviter: Actor, person: Omit<DemoSignIn, 'password'>): Promise<DemoSignIn & { userId: string }> {
    const invited = await this.staff.invite(tenant, inviter, person, 'return');
    const token = invited.activationUrl?.split('/').pop();
    if (!token) throw new Error(`no console link was issued to ${person.username}`);
    const password = this.passwordFor(tenant, person.username);
    await this.activation.complete(tenant.id, token, await hashPassword(password));
    return { ...person, password, userId: invited.userId };
  }

  /** A drawn password the policy takes (a draw may happen to contain the username: then another). */
  private passwordFor(tenant: Tenant, username: string): string {
    for (let draw = 0; draw < 20; draw++) {
      const password = demoPassword();
      if (this.logins.checkNew(password, password, { tenantSlug: tenant.slug, username }).ok) return password;
    }
    throw new Error(`no demo password for ${username} passed the password policy`);
  }
}
