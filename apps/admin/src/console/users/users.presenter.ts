import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AccountError, AccountErrorCode, type Role, UserService, type UserStatusFilter, type UserView, mayManageUser } from '@gatehouse/accounts';
import { type AuditEventView, AuditService } from '@gatehouse/audit';
import { parseTextSort, textSortParam } from '@gatehouse/database';
import { DocService } from '@gatehouse/docs';
import { InvitationError, InvitationService } from '@gatehouse/invitations';
import { type FieldErrors, type Option, html } from '@gatehouse/views';
import { CreateUserDto, UserQueryDto } from '../../dto/users.dto.js';
import { CreateInvitationDto } from '../../dto/invitations.dto.js';
import { field, fieldList, formErrors } from '../frame/console-forms.js';
import { cursorWindow, queryText as text } from '../frame/console-paging.js';
import { OrganisationService } from '@gatehouse/organisations';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { type UserDetailInput, userDetail } from './user-detail.pages.js';
import { type NewUserForm, type UserListFilters, newUserForm, userList } from './users.pages.js';

type Query = Record<string, unknown>;
const SORTS = ['name', 'username', 'email'] as const;
const PAGE = 50;

/** The invitation part of a form (create user, open sections): the REST DTO's rules and messages. */
export async function invitationErrors(userId: string, sections: string[], hours: string): Promise<FieldErrors> {
  const expiresInHours = /^\d{1,4}$/.test(hours) ? Number(hours) : hours;
  const errors = await formErrors(CreateInvitationDto, { userId, sections, expiresInHours });
  if (!sections.length) errors.sections = 'Choose at least one section.';
  if (errors.expiresInHours) errors.expiresInHours = 'Enter a number of hours from 1 to 720.';
  return errors;
}

/**
 * The Users page group: the list (search, filters, paging), a new user, a user's page. Every
 * read and write is the REST API's use case (`UserService`, `InvitationService`, `DocService`,
 * `AuditService`) with the signed-in person as the actor.
 */
@Injectable()
export class UsersPresenter {
  constructor(
    private readonly users: UserService,
    private readonly invitations: InvitationService,
    private readonly docs: DocService,
    private readonly audit: AuditService,
    private readonly organisations: OrganisationService,
  ) {}

  async list(who: ConsolePrincipal, query: Query): Promise<ConsoleView> {
    const sort = parseTextSort(text(query, 'sort'), SORTS);
    const filters: UserListFilters = {
      q: text(query, 'q').trim(),
      status: text(query, 'status'),
      role: text(query, 'role'),
      invitations: text(query, 'invitations'),
      sort: sort ? textSortParam(sort) : '',
    };
    const errors = await formErrors(UserQueryDto, { search: filters.q || undefined, status: filters.status || undefined, role: filters.role || undefined });
    const valid = !Object.keys(errors).length;
    const { newer, older, items } = valid ? await this.page(who, filters, text(query, 'after'), text(query, 'before')) : { items: [], newer: undefined, older: null };
    return {
      title: 'Users',
      lead: 'People who sign in to the documentation, and staff.',
      action: who.permissions.includes('Users.Manage') ? html`<a class="button" href="${who.base}/users/new">New user</a>` : undefined,
      body: userList({ base: who.base, filters, users: items, newer, older, invited: await this.users.invitedUntil(who.tenantId, items.map((u) => u.id)) }),
      flash: valid ? undefined : [{ kind: 'error', text: Object.values(errors)[0]! }],
      status: valid ? 200 : 400,
    };
  }

  /** Newest first; "Older" continues after the last row, "Newer" walks back before the first. */
  private async page(who: ConsolePrincipal, filters: UserListFilters, after: string, before: string) {
    const filter = {
      search: filters.q || undefined,
      status: (filters.status as UserStatusFilter) || undefined,
      role: (filters.role as Role) || undefined,
      invitations: filters.invitations === 'expiring' ? ('expiring' as const) : undefined,
      order: 'newest' as const,
      sort: parseTextSort(filters.sort, SORTS),
      limit: PAGE,
    };
    const window = await cursorWindow((request) => this.users.browse(who.tenantId, { ...filter, ...request }), { after, before });
    return { items: window.items, newer: window.previous, older: window.next };
  }

  async showNew(who: ConsolePrincipal, values: NewUserForm = {}, errors: FieldErrors = {}, error?: string): Promise<ConsoleView> {
    return {
      title: 'New user',
      breadcrumbs: [{ label: 'Users', href: `${who.base}/users` }, { label: 'New user' }],
      body: newUserForm({ base: who.base, csrf: who.csrfToken, values, errors, error, sections: await this.sectionOptions(who), mayInvite: who.permissions.includes('Invitations.Manage') }),
      status: error || Object.keys(errors).length ? 400 : 200,
    };
  }

  async create(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const values: NewUserForm = {
      username: field(req, 'username').trim(),
      email: field(req, 'email').trim(),
      displayName: field(req, 'displayName').trim(),
      access: field(req, 'access'),
      sections: fieldList(req, 'sections'),
      expiresInHours: field(req, 'expiresInHours').trim(),
    };
    const invite = values.access === 'invitation';
    const errors = await formErrors(CreateUserDto, { username: values.username, email: values.email, displayName: values.displayName });
    if (errors.displayName) errors.displayName = 'Enter the name as others see it (1 to 200 characters, one line).';
    if (errors.email) errors.email = 'Enter one email address, such as pat@partner.example.';
    if (errors.username && !values.username) errors.username = 'Enter a username (letters, digits and . _ @ -).';
    if (invite && !who.permissions.includes('Invitations.Manage')) errors.access = 'Your roles do not include sending invitations.';
    else if (invite) Object.assign(errors, await invitationErrors('00000000-0000-4000-8000-000000000000', values.sections!, values.expiresInHours!));
    if (Object.keys(errors).length) return this.showNew(who, values, errors);
    let user: UserView;
    try {
      user = await this.users.create(who.tenantId, who, { username: values.username!, email: values.email!, displayName: values.displayName!, password: 'activation-link' });
    } catch (error) {
      if (error instanceof AccountError && error.code === AccountErrorCode.UsernameTaken) {
        return this.showNew(who, values, { username: `${error.message} Choose another username.` });
      }
      throw error;
    }
    let text = `${user.displayName} was created. An activation link went to ${user.email} (valid 24 hours).`;
    if (invite) {
      try {
        await this.invitations.create(who.tenantId, who, { userId: user.id, sections: values.sections!, expiresInHours: Number(values.expiresInHours) });
        text += ` An invitation to ${values.sections!.join(', ')} went out too.`;
      } catch (error) {
        if (!(error instanceof InvitationError)) throw error;
        text += ` The invitation was not sent: ${error.message} Send it from this page.`;
      }
    }
    return { redirect: `${who.base}/users/${user.id}`, flash: { kind: 'success', text } };
  }

  async detail(who: ConsolePrincipal, id: string, invite?: Pick<UserDetailInput, 'inviteValues' | 'inviteErrors'>): Promise<ConsoleView> {
    const user = await this.users.get(who.tenantId, id);
    const may = {
      manage: who.permissions.includes('Users.Manage') && mayManageUser(who, user),
      staff: user.roles.length > 0,
      invite: who.permissions.includes('Invitations.Manage'),
      docs: who.permissions.includes('Docs.Manage'),
      audit: who.permissions.includes('Audit.Read'),
      roles: who.permissions.includes('Tenant.Manage'),
    };
    const [sections, invitations, history, all, invited, organisations] = await Promise.all([
      this.docs.sectionsOf(who.tenantId, id),
      may.invite ? this.invitations.list(who.tenantId, { userId: id, limit: 200 }).then((p) => p.items.reverse()) : Promise.resolve([]),
      may.audit ? this.audit.list(who.tenantId, { target: id, limit: 20 }).then((p) => p.items) : Promise.resolve(null),
      this.sectionOptions(who),
      this.users.invitedUntil(who.tenantId, [id]),
      this.organisations.names(who.tenantId, [user.organisationId]),
    ]);
    const organisationName = user.organisationId ? organisations.get(user.organisationId) : undefined;
    const open = new Set(sections.map((s) => s.slug));
    return {
      title: user.displayName,
      breadcrumbs: [{ label: 'Users', href: `${who.base}/users` }, { label: user.displayName }],
      body: userDetail({
        base: who.base,
        csrf: who.csrfToken,
        user,
        invitedUntil: invited.get(id) ?? null,
        may,
        sections,
        closed: all.filter((o) => !open.has(o.value)),
        invitations,
        history,
        actors: await this.names(who, history),
        inviteValues: invite?.inviteValues ?? { sections: [], expiresInHours: '168' },
        inviteErrors: invite?.inviteErrors ?? {},
        organisation: organisationName ? { id: user.organisationId!, name: organisationName } : null,
      }),
      status: invite && Object.keys(invite.inviteErrors).length ? 400 : 200,
    };
  }

  /** The names of the people who acted in these events (at most 20 look-ups, by id). */
  private async names(who: ConsolePrincipal, events: AuditEventView[] | null): Promise<Map<string, string>> {
    const ids = [...new Set((events ?? []).map((e) => e.actor.userId).filter((id): id is string => !!id))];
    const found = await Promise.all(ids.map((id) => this.users.findById(who.tenantId, id)));
    return new Map(found.flatMap((u) => (u ? [[u.id, u.displayName] as const] : [])));
  }

  /** The tenant's documentation sections as choices (the first 200). */
  private async sectionOptions(who: ConsolePrincipal): Promise<Option[]> {
    const page = await this.docs.list(who.tenantId, { limit: 200 });
    return page.items.map((s) => ({ value: s.slug, label: s.title, hint: `(${s.slug})` }));
  }
}
