import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  type AccountReset,
  AccountError,
  AccountErrorCode,
  type LinkDelivery,
  type Role,
  SecondFactorService,
  type User,
  UserService,
  lockOf,
  mayAssignRoles,
} from '@gatehouse/accounts';
import { type Actor, AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { SessionService } from '@gatehouse/sessions';
import { type Tenant, TenantService } from '@gatehouse/tenants';
import { ProvisioningRepository, type StaffListOptions } from './provisioning.repository.js';

export type { StaffListOptions } from './provisioning.repository.js';
import { StaffError, StaffErrorCode } from './staff.errors.js';
import { StaffLinks } from './staff-links.js';

export interface StaffInvitationInput {
  email: string;
  role: Role;
  /** Defaults to the part of the email address before the `@`. */
  username?: string;
  displayName?: string;
}

/** A staff member as the Staff page lists them. */
export interface StaffMemberView {
  id: string;
  username: string;
  email: string;
  displayName: string;
  roles: Role[];
  status: User['status'];
  lockedUntil: Date | null;
  /** When the authenticator app was set up; `null`: not yet (they enrol at their next sign-in). */
  authenticatorSince: Date | null;
  recoveryCodesLeft: number;
  /**
   * Invited and never signed in with a password of their own: when their newest link stops working
   * (in the past: the invitation expired unused); `null` once they set up their access.
   */
  invitedUntil: Date | null;
}

/** At most this many staff are listed (a tenant has a handful). */
export const STAFF_LIST_LIMIT = 500;

export interface StaffInvitation {
  userId: string;
  username: string;
  email: string;
  displayName: string;
  roles: Role[];
  /** `false` when the person existed already (found by username). */
  created: boolean;
  /** `{ADMIN_PUBLIC_URL}/console/activate/{token}`: set a password, enrol TOTP. Returned once (delivery `return`), else mailed. */
  activationUrl?: string;
  expiresAt: Date;
  /** The person existed without a role: what was reset so that the new link is the only way in. */
  accountReset?: AccountReset;
}

/** A username from an email address: its local part, lower-cased, with only the characters usernames allow. */
export function usernameFromEmail(email: string): string {
  return (
    (email.split('@')[0] ?? '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-')
      .slice(0, 64) || 'staff'
  );
}

/**
 * Staff access across contexts: inviting a person to the console (the user, the role, a one-time
 * activation link, the mail, the audit — one transaction) and the break-glass reset of a person's
 * second factor (which ends their sessions too). The CLI and the console call these same use cases.
 */
@Injectable()
export class StaffAccessService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: ProvisioningRepository,
    private readonly tenants: TenantService,
    private readonly users: UserService,
    private readonly links: StaffLinks,
    private readonly factors: SecondFactorService,
    private readonly sessions: SessionService,
    private readonly audit: AuditService,
  ) {}

  /** The tenant named by slug or id, or a StaffError. */
  async tenant(idOrSlug: string): Promise<Tenant> {
    const tenant = await this.tenants.findByIdOrSlug(idOrSlug);
    if (!tenant) throw new StaffError(StaffErrorCode.TenantNotFound, `There is no tenant "${idOrSlug}".`);
    return tenant;
  }

  /**
   * Creates (or finds) the staff member, gives them the role and a one-time console activation
   * link, in one transaction. An existing account that held no role starts afresh (its password,
   * links, second factors and sessions gone, the credentials of clients made in its name revoked):
   * what was reset is in `accountReset`, for the Administrator to see.
   */
  async invite(tenant: Tenant, actor: Actor, input: StaffInvitationInput, delivery: LinkDelivery): Promise<StaffInvitation> {
    this.requireAdministrator(actor);
    const username = input.username ?? usernameFromEmail(input.email);
    return this.dataSource.transaction(async (em) => {
      const existing = await this.users.findByUsername(tenant.id, username, em);
      if (existing) this.checkSamePerson(existing, input.email);
      const { user, accountReset } = existing
        ? await this.giveRole(em, tenant, actor, existing, input.role, delivery)
        : { user: await this.createStaff(em, tenant, actor, { ...input, username }), accountReset: undefined };
      const link = accountReset ? null : await this.links.issue(em, tenant, user, delivery);
      const activationUrl = link?.url ?? accountReset?.activation.url;
      await this.audit.record(em, {
        tenantId: tenant.id,
        actor,
        action: 'user.staff_invited',
        targetType: 'user',
        targetId: user.id,
        details: { role: input.role, created: !existing, delivery, startedAfresh: accountReset !== undefined },
      });
      const { id, email, displayName, roles } = user;
      return {
        ...{ userId: id, username: user.username, email, displayName, roles, created: !existing },
        expiresAt: link?.expiresAt ?? accountReset!.activation.expiresAt,
        ...(delivery === 'return' && activationUrl ? { activationUrl } : {}),
        ...(accountReset ? { accountReset: withoutUrl(accountReset) } : {}),
      };
    });
  }

  /** A new staff member without a password (and no Web UI activation mail: the console's link sets it). */
  private async createStaff(em: EntityManager, tenant: Tenant, actor: Actor, input: StaffInvitationInput & { username: string }): Promise<User> {
    const person = { username: input.username, email: input.email, displayName: input.displayName ?? input.username };
    const created = await this.users.create(tenant.id, actor, { ...person, roles: [input.role], password: 'none' }, em);
    return (await this.users.findById(tenant.id, created.id, em))!;
  }

  /** Adds the role (a first role starts the account afresh and issues its link); the person as they are now. */
  private async giveRole(em: EntityManager, tenant: Tenant, actor: Actor, existing: User, role: Role, delivery: LinkDelivery) {
    if (existing.roles.includes(role)) return { user: existing, accountReset: undefined };
    const updated = await this.users.update(tenant.id, actor, existing.id, { roles: [...existing.roles, role] }, { em, delivery });
    return { user: (await this.users.findById(tenant.id, existing.id, em))!, accountReset: updated.accountReset };
  }

  /** The tenant's staff with their second-factor state (Administrators only, like every staff change). */
  async list(tenantId: string, actor: Actor, options: StaffListOptions = {}): Promise<StaffMemberView[]> {
    this.requireAdministrator(actor);
    const search = options.search?.trim() || undefined;
    const staff = await this.repository.findStaff(this.dataSource.manager, tenantId, STAFF_LIST_LIMIT, { ...options, search });
    return this.withFactors(tenantId, staff);
  }

  /** One person (staff or not) with their second-factor state. */
  async member(tenantId: string, actor: Actor, userId: string): Promise<StaffMemberView> {
    this.requireAdministrator(actor);
    const user = await this.users.findById(tenantId, userId);
    if (!user) throw new StaffError(StaffErrorCode.UserNotFound, 'No such person.');
    return (await this.withFactors(tenantId, [user]))[0]!;
  }

  /** Removes a person's second factors and ends their sessions: they enrol again at the next sign-in. */
  resetSecondFactor(tenantId: string, actor: Actor, userId: string): Promise<void> {
    return this.dataSource.transaction(async (em) => {
      const user = await this.users.findById(tenantId, userId);
      if (!user) throw new StaffError(StaffErrorCode.UserNotFound, 'No such person.');
      await this.factors.reset(em, tenantId, actor, user);
      await this.sessions.endAllOf(tenantId, user.id, em);
    });
  }

  /** The break-glass path of the command line (`operator reset-mfa`), audited as the system. */
  async resetSecondFactorByUsername(
    tenantIdOrSlug: string,
    username: string,
  ): Promise<{ userId: string; tenant: Tenant }> {
    const tenant = await this.tenant(tenantIdOrSlug);
    const user = await this.repository.findUser(this.dataSource.manager, tenant.id, username);
    if (!user)
      throw new StaffError(StaffErrorCode.UserNotFound, `There is no user "${username}" in tenant ${tenant.slug}.`);
    await this.resetSecondFactor(tenant.id, SYSTEM_ACTOR, user.id);
    return { userId: user.id, tenant };
  }

  private requireAdministrator(actor: Actor): void {
    requireStaffAdministrator(actor);
  }

  private async withFactors(tenantId: string, users: User[]): Promise<StaffMemberView[]> {
    const invited = await this.users.invitedUntil(tenantId, users.map((u) => u.id));
    const factors = new Map(
      (
        await this.factors.summaries(
          tenantId,
          users.map((u) => u.id),
        )
      ).map((f) => [f.userId, f]),
    );
    return users.map((user) => ({
      id: user.id,
      username: user.username,
      email: user.email,
      displayName: user.displayName,
      roles: [...user.roles],
      status: user.status,
      lockedUntil: lockOf(user.lockedUntil, user.secondFactorLockedUntil),
      authenticatorSince: factors.get(user.id)?.totpConfirmedAt ?? null,
      recoveryCodesLeft: factors.get(user.id)?.recoveryCodesLeft ?? 0,
      invitedUntil: invited.get(user.id) ?? null,
    }));
  }

  private checkSamePerson(user: User, email: string): void {
    if (user.email.toLowerCase() !== email.toLowerCase()) {
      throw new StaffError(
        StaffErrorCode.UsernameOfAnother,
        `The username ${user.username} belongs to someone with another email address; choose another username.`,
      );
    }
    if (user.status !== 'active')
      throw new StaffError(StaffErrorCode.UserDisabled, `${user.username} is disabled; enable the account first.`);
  }
}

/** Only an Administrator invites staff, resends or revokes their invitations, resets their second factor. */
export function requireStaffAdministrator(actor: Actor): void {
  if (!mayAssignRoles(actor)) throw new AccountError(AccountErrorCode.RolesRequireAdministrator, 'Only an Administrator manages staff.');
}

/** The reset as shown and printed: the link itself stands once, beside it, never twice. */
function withoutUrl(reset: AccountReset): AccountReset {
  const { url: _url, ...activation } = reset.activation;
  return { ...reset, activation };
}
