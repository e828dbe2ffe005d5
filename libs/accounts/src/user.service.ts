import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import argon2 from 'argon2';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type Page, type PageRequest, type SortableRange, type TextSort, type TwoWayPage, type TwoWayRequest, announceChange, oneWay, sortablePage, uniqueViolation } from '@gatehouse/database';
import { OrganisationService } from '@gatehouse/organisations';
import { AccountError, AccountErrorCode } from './account.errors.js';
import { ActivationService } from './activation.service.js';
import type { AccountReset, FirstRoleHook, LinkDelivery } from './first-role.js';
import { ROLES, type Role } from './roles.js';
import type { User, UserStatus } from './user.entity.js';
import { USER_SORT_COLUMNS, UserRepository, type UserStatusFilter } from './user.repository.js';
import { userSortKey } from './user-sort.js';
import { keepAnAdministrator } from './administrator-guard.js';
import { type UserView, toUserView } from './user.view.js';

export type InitialPasswordMode = 'generate' | 'activation-link';
/** How a new account gets its password; the default is the activation link. */
export const DEFAULT_PASSWORD_SETUP: InitialPasswordMode = 'activation-link';

export interface CreateUserInput {
  username: string;
  email: string;
  displayName: string;
  roles?: Role[];
  /**
   * `activation-link` (the default) mails a link to choose a password; `generate` returns a
   * one-time password once. `none` (not offered by the admin API) leaves the account without a
   * password and mails nothing — for accounts that get in another way, e.g. through an operator's
   * client or a console invitation of their own.
   */
  password?: InitialPasswordMode | 'none';
  /** The partner organisation the person belongs to (an active one). */
  organisationId?: string | null;
}

export interface UpdateUserInput {
  email?: string;
  displayName?: string;
  roles?: Role[];
  /** Puts the person into an (active) organisation, or out of theirs with `null`. */
  organisationId?: string | null;
}

export interface UserFilter extends PageRequest {
  /** Prefix of the username, email or display name, any case. */
  search?: string;
  username?: string;
  email?: string;
  status?: UserStatusFilter;
  role?: Role;
  /** `expiring`: users with a pending invitation expiring within 48 hours. */
  invitations?: 'expiring';
  /** `oldest` (the default) or `newest` first. */
  order?: 'oldest' | 'newest';
  /** By name, username or email instead of creation (`order` then does not apply). */
  sort?: TextSort;
}

export type CreatedUser = UserView & { initialPassword?: string };

/** An updated user; `accountReset` when the change gave an existing account its first role. */
export type UpdatedUser = UserView & { accountReset?: AccountReset };

export interface UpdateOptions {
  /** The caller's transaction (a use case that does more in the same one). */
  em?: EntityManager;
  /** How the console activation link of an account given its first role reaches the person (default `mail`). */
  delivery?: LinkDelivery;
}

/** Only an Administrator (the holder of Tenant.Manage) or the system changes roles. */
export function mayAssignRoles(actor: Actor): boolean {
  return actor.type === 'system' || (actor.permissions ?? []).includes('Tenant.Manage');
}

/**
 * Only an Administrator (or the system) manages a person who holds a role: changing their email,
 * name or roles, disabling, enabling, unlocking or resetting them. Otherwise a contact person
 * could take over a peer, or anyone staff (SECURITY 56). A person without a role is managed by
 * whoever holds the operation's permission.
 */
export function mayManageUser(actor: Actor, target: Pick<User, 'roles'>): boolean {
  return target.roles.length === 0 || mayAssignRoles(actor);
}

/** The refusal of {@link mayManageUser}. */
export function staffRefusal(): AccountError {
  return new AccountError(AccountErrorCode.UserPrivileged, 'This person holds a role: only an Administrator manages their account.');
}

/** A generated password would be known to whoever generated it: never for a person who holds a role. */
export function refuseGeneratedForStaff(roles: readonly Role[], mode: InitialPasswordMode | 'none', field: string): void {
  if (mode !== 'generate' || roles.length === 0) return;
  throw new AccountError(
    AccountErrorCode.GeneratedPasswordForStaff,
    'A person who holds a role never gets a generated password: they choose their own through an activation link.',
    field,
  );
}

/** Where a user stands in the list's order (its cursor). */
export function userPosition(user: Pick<User, 'createdAt' | 'id'>): { at: Date; id: string } {
  return { at: user.createdAt, id: user.id };
}

/** A generated initial password: 144 random bits, 24 characters. */
export function generateInitialPassword(): string {
  return randomBytes(18).toString('base64url');
}

@Injectable()
export class UserService {
  private firstRoleHook: FirstRoleHook | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UserRepository,
    private readonly audit: AuditService,
    private readonly activation: ActivationService,
    private readonly organisations: OrganisationService,
  ) {}

  /**
   * Creates a user. By default an activation link is mailed (in the same transaction); with
   * `password: 'generate'` the one-time initial password is returned once.
   */
  async create(tenantId: string, actor: Actor, input: CreateUserInput, em?: EntityManager): Promise<CreatedUser> {
    const roles = this.checkRoles(actor, input.roles);
    const setup = input.password ?? DEFAULT_PASSWORD_SETUP;
    refuseGeneratedForStaff(roles, setup, 'password');
    const initialPassword = setup === 'generate' ? generateInitialPassword() : undefined;
    const passwordHash = initialPassword ? await argon2.hash(initialPassword, { type: argon2.argon2id }) : null;
    try {
      return await this.transaction(em, async (tx) => {
        const organisationId = await this.organisationOf(tx, tenantId, input.organisationId);
        const user = await this.users.insert(tx, {
          tenantId,
          organisationId,
          username: input.username,
          usernameNormalized: input.username.toLowerCase(),
          email: input.email,
          displayName: input.displayName,
          roles,
          status: 'active',
          passwordHash,
          mustChangePassword: setup !== 'none',
        });
        if (setup === 'activation-link') await this.activation.issue(tx, user, 'activation');
        await this.record(tx, tenantId, actor, 'user.created', user, { username: user.username, email: user.email, roles, setup, organisationId });
        if (roles.length) await announceChange(tx, 'user', tenantId, user.id);
        return { ...toUserView(user), ...(initialPassword ? { initialPassword } : {}) };
      });
    } catch (error) {
      if (uniqueViolation(error) === 'users_tenant_username_key') {
        throw new AccountError(AccountErrorCode.UsernameTaken, `The username ${input.username} is taken.`);
      }
      throw error;
    }
  }

  async list(tenantId: string, filter: UserFilter): Promise<Page<UserView>> {
    return oneWay(await this.browse(tenantId, { ...filter, before: undefined }));
  }

  /** {@link list} both ways: `before` (a page's `prevCursor`) walks towards the start of the order. */
  browse(tenantId: string, filter: UserFilter & TwoWayRequest): Promise<TwoWayPage<UserView>> {
    const { search, username, email, status, role } = filter;
    const sort = filter.sort && filter.sort.by in USER_SORT_COLUMNS ? filter.sort : undefined;
    const query = {
      ...{ search: search?.trim() || undefined, username, email, status, role },
      invitationsExpiring: filter.invitations === 'expiring',
      newestFirst: filter.order === 'newest',
    };
    const list = { rows: (range: SortableRange) => this.users.page(tenantId, { ...query, ...range }), at: userPosition, key: userSortKey };
    return sortablePage(filter, sort, list, toUserView);
  }

  async get(tenantId: string, id: string): Promise<UserView> {
    return toUserView(await this.require(tenantId, id));
  }

  /**
   * Who among these users is invited and has not set a password yet, with the end of their newest
   * link (past: the invitation expired unused).
   */
  invitedUntil(tenantId: string, userIds: string[]): Promise<Map<string, Date>> {
    return this.users.invitedUntil(tenantId, userIds);
  }

  /** The user behind an admin token, or `null`: read on every request so changes act at once. */
  findById(tenantId: string, id: string, em?: EntityManager): Promise<User | null> {
    return this.users.findById(tenantId, id, em);
  }

  /** Case-insensitive lookup (for bootstrap reruns); `em` to read inside a caller's transaction. */
  findByUsername(tenantId: string, username: string, em?: EntityManager): Promise<User | null> {
    return this.users.findByUsername(tenantId, username, em);
  }

  /** Registers the use case that starts an account afresh when it is given its first role (one, at start-up). */
  onFirstRole(hook: FirstRoleHook): void {
    if (this.firstRoleHook) throw new Error('a first-role hook is registered already');
    this.firstRoleHook = hook;
  }

  /**
   * Changes email, display name or roles. An existing account given its first role starts afresh
   * (the registered {@link FirstRoleHook}, in this transaction): what was reset is returned.
   */
  async update(tenantId: string, actor: Actor, id: string, input: UpdateUserInput, options: UpdateOptions = {}): Promise<UpdatedUser> {
    const roles = input.roles === undefined ? undefined : this.checkRoles(actor, input.roles);
    return this.transaction(options.em, async (em) => {
      if (roles !== undefined) await this.users.lockAdministrators(em, tenantId);
      const user = await this.requireManageable(tenantId, actor, id, em);
      if (roles !== undefined && !roles.includes('Administrator')) await keepAnAdministrator(this.users, em, user);
      const before = { email: user.email, displayName: user.displayName, roles: [...user.roles], organisationId: user.organisationId };
      if (input.organisationId !== undefined) user.organisationId = await this.organisationOf(em, tenantId, input.organisationId);
      if (input.email !== undefined) user.email = input.email;
      if (input.displayName !== undefined) user.displayName = input.displayName;
      if (roles !== undefined) user.roles = roles;
      const saved = await this.users.save(em, user);
      await this.record(em, tenantId, actor, 'user.updated', saved, { before, changes: input });
      if (roles !== undefined) await announceChange(em, 'user', tenantId, user.id);
      const firstRole = before.roles.length === 0 && saved.roles.length > 0;
      const accountReset = firstRole ? await this.startAfresh(em, { tenantId, actor, user: saved, delivery: options.delivery ?? 'mail' }) : undefined;
      return { ...toUserView(saved), ...(accountReset ? { accountReset } : {}) };
    });
  }

  disable(tenantId: string, actor: Actor, id: string): Promise<UserView> {
    return this.setStatus(tenantId, actor, id, 'disabled');
  }

  enable(tenantId: string, actor: Actor, id: string): Promise<UserView> {
    return this.setStatus(tenantId, actor, id, 'active');
  }

  private async setStatus(tenantId: string, actor: Actor, id: string, status: UserStatus): Promise<UserView> {
    return this.dataSource.transaction(async (em) => {
      if (status === 'disabled') await this.users.lockAdministrators(em, tenantId);
      const user = await this.requireManageable(tenantId, actor, id, em);
      if (user.status === status) return toUserView(user);
      if (status === 'disabled') await keepAnAdministrator(this.users, em, user);
      user.status = status;
      const saved = await this.users.save(em, user);
      await this.record(em, tenantId, actor, status === 'active' ? 'user.enabled' : 'user.disabled', saved, {});
      await announceChange(em, 'user', tenantId, user.id);
      return toUserView(saved);
    });
  }

  /** The organisation a person is put into: an active one of the tenant, or none. */
  private async organisationOf(em: EntityManager, tenantId: string, id: string | null | undefined): Promise<string | null> {
    return id ? (await this.organisations.requireAssignable(em, tenantId, id)).id : null;
  }

  private startAfresh(em: EntityManager, grant: Parameters<FirstRoleHook>[1]): Promise<AccountReset> {
    // Never give a role without the reset: no registered use case, no change.
    if (!this.firstRoleHook) throw new Error('no first-role hook registered: import ProvisioningModule');
    return this.firstRoleHook(em, grant);
  }

  private checkRoles(actor: Actor, roles: Role[] | undefined): Role[] {
    if (roles === undefined) return [];
    if (!mayAssignRoles(actor)) {
      throw new AccountError(AccountErrorCode.RolesRequireAdministrator, 'Only an Administrator assigns roles.');
    }
    const unknown = roles.filter((role) => !ROLES.includes(role));
    if (unknown.length) throw new AccountError(AccountErrorCode.InvalidRole, `Unknown roles: ${unknown.join(', ')}`);
    return [...new Set(roles)];
  }

  private async requireManageable(tenantId: string, actor: Actor, id: string, em: EntityManager): Promise<User> {
    const user = await this.require(tenantId, id, em);
    if (!mayManageUser(actor, user)) throw staffRefusal();
    return user;
  }

  /** Refuses to demote or disable the tenant's last active Administrator (callers hold the lock). */
  private async require(tenantId: string, id: string, em?: EntityManager): Promise<User> {
    const user = await this.users.findById(tenantId, id, em, em !== undefined);
    if (!user) throw new AccountError(AccountErrorCode.NotFound, 'No such user.');
    return user;
  }

  private record(em: EntityManager, tenantId: string, actor: Actor, action: string, user: User, details: Record<string, unknown>) {
    return this.audit.record(em, { tenantId, actor, action, targetType: 'user', targetId: user.id, details });
  }

  private transaction<T>(em: EntityManager | undefined, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return em ? work(em) : this.dataSource.transaction(work);
  }
}
