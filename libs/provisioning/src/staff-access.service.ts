import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  AccountError,
  AccountErrorCode,
  ConsoleActivationService,
  type Role,
  SecondFactorService,
  type User,
  UserService,
  mayAssignRoles,
} from '@gatehouse/accounts';
import { type Actor, AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { MailOutbox, staffInvitationEmail } from '@gatehouse/mail';
import { SessionService } from '@gatehouse/sessions';
import { type Tenant, TenantService } from '@gatehouse/tenants';
import { ProvisioningRepository } from './provisioning.repository.js';
import { StaffError, StaffErrorCode } from './staff.errors.js';

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
  /** `{ADMIN_PUBLIC_URL}/console/activate/{token}`: set a password, enrol TOTP. Shown or mailed once. */
  activationUrl: string;
  expiresAt: Date;
}

/** `mail`: the link goes to the person through the outbox (console); `return`: the caller prints it (CLI). */
export type LinkDelivery = 'mail' | 'return';

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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: ProvisioningRepository,
    private readonly tenants: TenantService,
    private readonly users: UserService,
    private readonly links: ConsoleActivationService,
    private readonly factors: SecondFactorService,
    private readonly sessions: SessionService,
    private readonly outbox: MailOutbox,
    private readonly audit: AuditService,
  ) {}

  /** The tenant named by slug or id, or a StaffError. */
  async tenant(idOrSlug: string): Promise<Tenant> {
    const tenant = await this.tenants.findByIdOrSlug(idOrSlug);
    if (!tenant) throw new StaffError(StaffErrorCode.TenantNotFound, `There is no tenant "${idOrSlug}".`);
    return tenant;
  }

  /** Where a tenant's console lives: `/console` for the UI tenant, `/t/{slug}/console` for the others. */
  async consoleBase(tenant: Tenant): Promise<string> {
    const ui = await this.tenants.uiTenant();
    return `${this.config.adminPublicUrl}${ui?.id === tenant.id ? '' : `/t/${encodeURIComponent(tenant.slug)}`}/console`;
  }

  /** Creates (or finds) the staff member, gives them the role and a one-time console activation link. */
  async invite(
    tenant: Tenant,
    actor: Actor,
    input: StaffInvitationInput,
    delivery: LinkDelivery,
  ): Promise<StaffInvitation> {
    this.requireAdministrator(actor);
    const username = input.username ?? usernameFromEmail(input.email);
    const existing = await this.users.findByUsername(tenant.id, username);
    if (existing) this.checkSamePerson(existing, input.email);
    if (existing && !existing.roles.includes(input.role)) {
      await this.users.update(tenant.id, actor, existing.id, { roles: [...existing.roles, input.role] });
    }
    const base = await this.consoleBase(tenant);
    return this.dataSource.transaction(async (em) => {
      const user = existing
        ? (await this.users.findByUsername(tenant.id, username, em))!
        : // No Web UI activation mail beside the console's own link: the person sets the password there.
          await this.users.create(
            tenant.id,
            actor,
            {
              username,
              email: input.email,
              displayName: input.displayName ?? username,
              roles: [input.role],
              password: 'none',
            },
            em,
          );
      const { token, expiresAt } = await this.links.issue(em, { id: user.id, tenantId: tenant.id });
      const activationUrl = `${base}/activate/${token}`;
      if (delivery === 'mail') await this.mail(em, tenant, user, input.role, activationUrl, expiresAt);
      await this.audit.record(em, {
        tenantId: tenant.id,
        actor,
        action: 'user.staff_invited',
        targetType: 'user',
        targetId: user.id,
        details: { role: input.role, created: !existing, delivery },
      });
      const { id, email, displayName, roles } = user;
      return {
        userId: id,
        username: user.username,
        email,
        displayName,
        roles,
        created: !existing,
        activationUrl,
        expiresAt,
      };
    });
  }

  /** The tenant's staff with their second-factor state (Administrators only, like every staff change). */
  async list(tenantId: string, actor: Actor): Promise<StaffMemberView[]> {
    this.requireAdministrator(actor);
    const staff = await this.repository.findStaff(this.dataSource.manager, tenantId, STAFF_LIST_LIMIT);
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
      lockedUntil: user.lockedUntil && user.lockedUntil.getTime() > Date.now() ? user.lockedUntil : null,
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

  private mail(em: EntityManager, tenant: Tenant, user: Pick<User, 'email' | 'displayName' | 'username'>, role: Role, link: string, expiresAt: Date) {
    return mailStaffLink(this.outbox, em, tenant, user, role, { link, expiresAt });
  }
}

/** Only an Administrator invites staff, resends or revokes their invitations, resets their second factor. */
export function requireStaffAdministrator(actor: Actor): void {
  if (!mayAssignRoles(actor)) throw new AccountError(AccountErrorCode.RolesRequireAdministrator, 'Only an Administrator manages staff.');
}

/** Queues the mail with a staff member's console link, in the caller's transaction. */
export async function mailStaffLink(
  outbox: MailOutbox,
  em: EntityManager,
  tenant: Tenant,
  user: Pick<User, 'email' | 'displayName' | 'username'>,
  role: string,
  sent: { link: string; expiresAt: Date },
): Promise<void> {
  const mail = staffInvitationEmail({ displayName: user.displayName, username: user.username, role, organisation: tenant.displayName, ...sent });
  await outbox.enqueue(em, { tenantId: tenant.id, to: user.email, mail });
}
