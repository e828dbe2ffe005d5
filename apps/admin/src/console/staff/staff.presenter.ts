import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { type AccountReset, AccountError, AccountErrorCode, type Role, UserService, accountResetLines, roleNames } from '@gatehouse/accounts';
import { parseTextSort, textSortParam } from '@gatehouse/database';
import { StaffAccessService, StaffError, StaffErrorCode, usernameFromEmail } from '@gatehouse/provisioning';
import { type FieldErrors, html, utc } from '@gatehouse/views';
import { CreateUserDto, UpdateUserDto } from '../../dto/users.dto.js';
import { field, fieldList, formErrors } from '../frame/console-forms.js';
import { queryText } from '../frame/console-paging.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { type InviteForm, inviteForm, memberPage, resetConfirmation, staffList } from './staff.pages.js';

/**
 * The Staff page group (Administrators): the list, inviting a person (the same use case as
 * `operator invite`, the link mailed), changing roles (the REST `PATCH /users/{id}` use case) and
 * resetting a second factor (the same use case as `operator reset-mfa`).
 */
@Injectable()
export class StaffPresenter {
  constructor(
    private readonly staff: StaffAccessService,
    private readonly users: UserService,
  ) {}

  async list(who: ConsolePrincipal, query: Record<string, unknown>): Promise<ConsoleView> {
    const q = queryText(query, 'q').trim().slice(0, 200);
    const sort = parseTextSort(queryText(query, 'sort'), ['name', 'username', 'email']);
    return {
      title: 'Staff',
      lead: 'The people who work in this console, their roles and second factors.',
      action: html`<a class="button" href="${who.base}/staff/invite">Invite staff</a>`,
      body: staffList(who.base, await this.staff.list(who.tenantId, who, { search: q, sort }), { q, sort: sort ? textSortParam(sort) : '' }),
    };
  }

  showInvite(who: ConsolePrincipal, values: InviteForm = {}, errors: FieldErrors = {}, error?: string): ConsoleView {
    return {
      title: 'Invite staff',
      breadcrumbs: [{ label: 'Staff', href: `${who.base}/staff` }, { label: 'Invite staff' }],
      body: inviteForm({ base: who.base, csrf: who.csrfToken, values, errors, error }),
      status: error || Object.keys(errors).length ? 400 : 200,
    };
  }

  async invite(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const values: InviteForm = {
      email: field(req, 'email').trim(),
      role: field(req, 'role'),
      username: field(req, 'username').trim(),
      displayName: field(req, 'displayName').trim(),
    };
    const username = values.username || usernameFromEmail(values.email ?? '');
    const displayName = values.displayName || username;
    const errors = await formErrors(CreateUserDto, { username, email: values.email, displayName, roles: values.role ? [values.role] : [] });
    if (!values.role) errors.role = 'Choose the role this person needs.';
    if (Object.keys(errors).length) return this.showInvite(who, values, errors);
    try {
      const invited = await this.staff.invite(who.tenant, who, { email: values.email!, role: values.role as Role, username, displayName }, 'mail');
      const sent = `Invitation sent to ${invited.email}. The link in it works once, for 72 hours (until ${utc(invited.expiresAt)}).`;
      const text = invited.accountReset ? `${sent} ${resetText(invited.accountReset)}` : sent;
      return { redirect: `${who.base}/staff/${invited.userId}`, flash: { kind: invited.accountReset ? 'warning' : 'success', text } };
    } catch (error) {
      const taken = (error instanceof AccountError && error.code === AccountErrorCode.UsernameTaken) ||
        (error instanceof StaffError && error.code === StaffErrorCode.UsernameOfAnother);
      if (taken) return this.showInvite(who, values, { username: `${(error as Error).message} Choose another username.` });
      if (error instanceof StaffError) return this.showInvite(who, values, {}, error.message);
      throw error;
    }
  }

  async member(who: ConsolePrincipal, id: string, roles?: readonly string[], errors: FieldErrors = {}): Promise<ConsoleView> {
    const member = await this.staff.member(who.tenantId, who, id);
    return {
      title: member.displayName,
      breadcrumbs: [{ label: 'Staff', href: `${who.base}/staff` }, { label: member.displayName }],
      body: memberPage({ base: who.base, csrf: who.csrfToken, member, roles: roles ?? member.roles, errors }),
      status: Object.keys(errors).length ? 409 : 200,
    };
  }

  async setRoles(who: ConsolePrincipal, id: string, req: Request): Promise<ConsoleResult> {
    const roles = fieldList(req, 'roles');
    const errors = await formErrors(UpdateUserDto, { roles });
    if (Object.keys(errors).length) return { ...(await this.member(who, id, roles, errors)), status: 400 };
    try {
      const updated = await this.users.update(who.tenantId, who, id, { roles: roles as Role[] });
      if (updated.accountReset) {
        const text = `${updated.displayName} now holds: ${roleNames(updated.roles)}. A console activation link went to ${updated.email} (valid until ${utc(updated.accountReset.activation.expiresAt)}). ${resetText(updated.accountReset)}`;
        return { redirect: `${who.base}/staff/${id}`, flash: { kind: 'warning', text } };
      }
      const text = updated.roles.length
        ? `${updated.displayName} now holds: ${roleNames(updated.roles)}. It takes effect on their next click.`
        : `${updated.displayName} holds no role now and can no longer sign in to the console.`;
      return { redirect: `${who.base}/staff/${id}`, flash: { kind: 'success', text } };
    } catch (error) {
      if (error instanceof AccountError && error.code === AccountErrorCode.LastAdministrator) {
        return this.member(who, id, roles, { roles: 'The tenant needs at least one active Administrator: give someone else the role first.' });
      }
      throw error;
    }
  }

  async confirmReset(who: ConsolePrincipal, id: string): Promise<ConsoleView> {
    const member = await this.staff.member(who.tenantId, who, id);
    return {
      title: 'Reset the second factor?',
      breadcrumbs: [
        { label: 'Staff', href: `${who.base}/staff` },
        { label: member.displayName, href: `${who.base}/staff/${id}` },
        { label: 'Reset second factor' },
      ],
      body: resetConfirmation({ base: who.base, csrf: who.csrfToken, member }),
    };
  }

  async reset(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    await this.staff.resetSecondFactor(who.tenantId, who, id);
    const member = await this.staff.member(who.tenantId, who, id);
    const text = `The second factor of ${member.displayName} was reset and their sessions ended. They set up a new authenticator app at their next sign-in.`;
    return { redirect: `${who.base}/staff/${id}`, flash: { kind: 'success', text } };
  }
}

/** What giving an existing account its first role reset, for the Administrator who gave it. */
function resetText(reset: AccountReset): string {
  return `The account existed already, without a role, so it starts afresh and the link is the only way in: ${accountResetLines(reset).join(' ')}`;
}
