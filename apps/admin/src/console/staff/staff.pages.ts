import { ROLES, ROLE_NAMES, type Role } from '@gatehouse/accounts';
import type { StaffMemberView } from '@gatehouse/provisioning';
import { invitationBadge, invitationSection } from './staff-invitation.pages.js';
import {
  type FieldErrors,
  type SafeHtml,
  badge,
  checkboxGroup,
  filterForm,
  formError,
  html,
  inputField,
  listUrl,
  postForm,
  selectField,
  table,
  timeTag,
  when,
} from '@gatehouse/views';

/** What each role may do, in the words of the people who hold them. */
export const ROLE_HINTS: Record<Role, string> = {
  Administrator: 'everything, including staff, roles and tenant settings',
  ContactPerson: 'users, invitations, documentation, partner clients and their secrets',
  ITDepartment: 'APIs and scopes; assigns scopes to clients',
  Auditor: 'reads the audit log, users and clients; changes nothing',
};

const ROLE_LABELS = ROLE_NAMES;

export function roleBadges(roles: readonly Role[]): SafeHtml {
  return roles.length ? html`${roles.map((role) => html`${badge(ROLE_LABELS[role])} `)}` : badge('no role', 'warn');
}

export function factorBadge(member: StaffMemberView): SafeHtml {
  return member.authenticatorSince ? badge('authenticator set up', 'good') : badge('not set up yet', 'warn');
}

export function statusBadge(member: StaffMemberView): SafeHtml {
  if (member.status === 'disabled') return badge('disabled', 'bad');
  if (member.lockedUntil) return badge(`locked until ${when(member.lockedUntil)}`, 'bad');
  return invitationBadge(member) ?? badge('active', 'good');
}

export function staffList(base: string, staff: StaffMemberView[], query: { q: string; sort: string } = { q: '', sort: '' }): SafeHtml {
  const path = `${base}/staff`;
  return html`${filterForm({
    action: path,
    submit: 'Search',
    keep: { sort: query.sort },
    fields: [{ kind: 'text', name: 'q', id: 'filter-q', label: 'Search', hint: 'Part of a name, username or email', value: query.q }],
  })}
  ${table({
    caption: 'Staff of this tenant',
    sorting: { current: query.sort || 'name', url: (sort) => listUrl(path, { q: query.q, sort: sort === 'name' ? '' : sort }) },
    columns: [
      { header: 'Name', sort: 'name', cell: (m: StaffMemberView) => html`<a href="${base}/staff/${m.id}">${m.displayName}</a>` },
      { header: 'Username', sort: 'username', cell: (m) => html`<code>${m.username}</code>` },
      { header: 'Email', sort: 'email', cell: (m) => m.email },
      { header: 'Roles', cell: (m) => roleBadges(m.roles) },
      { header: 'Second factor', cell: (m) => factorBadge(m) },
      { header: 'Status', cell: (m) => statusBadge(m) },
    ],
    rows: staff,
    empty: query.q
      ? html`No staff member matches “${query.q}”. <a href="${path}">Clear the search</a>, or invite them with "Invite staff".`
      : 'No staff yet. Invite the first person with "Invite staff".',
  })}`;
}

export interface InviteForm {
  email?: string;
  role?: string;
  username?: string;
  displayName?: string;
}

export function inviteForm(input: { base: string; csrf: string; values: InviteForm; errors: FieldErrors; error?: string }): SafeHtml {
  const { values, errors } = input;
  return html`${formError(input.error)}
    <p>The person gets an email with a one-time link (valid 72 hours) to choose a password and set up an authenticator app. Someone who is already a user here (same username and email) keeps their account and gains the role; if they held no role, their account starts afresh — their password, links, second factor and sessions stop working, the credentials of clients made in their name by others are revoked — and the emailed link is the only way in.</p>
    ${postForm({
      action: `${input.base}/staff/invite`,
      csrf: input.csrf,
      submit: 'Send the invitation',
      aside: html`<a href="${input.base}/staff">Cancel</a>`,
      body: html`${inputField({ name: 'email', label: 'Email address', type: 'email', value: values.email, autocomplete: 'off', required: true, error: errors.email, verbatim: true })}
      ${selectField({
        name: 'role',
        label: 'Role',
        value: values.role,
        error: errors.roles ?? errors.role,
        options: [{ value: '', label: 'Choose a role' }, ...ROLES.map((r) => ({ value: r, label: `${ROLE_LABELS[r]}: ${ROLE_HINTS[r]}` }))],
      })}
      ${inputField({ name: 'displayName', label: 'Name (optional)', hint: 'As colleagues see it, e.g. "Pat Partner".', value: values.displayName, error: errors.displayName })}
      ${inputField({ name: 'username', label: 'Username (optional)', hint: 'Letters, digits and . _ @ -. Defaults to the part of the email address before the @.', value: values.username, error: errors.username, verbatim: true, autocomplete: 'off' })}`,
    })}`;
}

function summary(member: StaffMemberView): SafeHtml {
  return html`<dl class="summary">
    <dt>Username</dt>
    <dd><code>${member.username}</code></dd>
    <dt>Email</dt>
    <dd>${member.email}</dd>
    <dt>Status</dt>
    <dd>${statusBadge(member)}</dd>
    <dt>Second factor</dt>
    <dd>
      ${factorBadge(member)}
      ${member.authenticatorSince
        ? html` ${timeTag(member.authenticatorSince)}; ${member.recoveryCodesLeft} recovery codes left`
        : ' — enrols at the next sign-in'}
    </dd>
  </dl>`;
}

export function memberPage(input: { base: string; csrf: string; member: StaffMemberView; roles: readonly string[]; errors: FieldErrors }): SafeHtml {
  const { base, member } = input;
  return html`<section class="panel" aria-labelledby="profile"><h2 id="profile">Profile</h2>${summary(member)}</section>
    ${invitationSection(input)}
    <section class="panel" aria-labelledby="roles-heading">
      <h2 id="roles-heading">Roles</h2>
      ${member.roles.length
        ? ''
        : html`<p class="notice">${member.displayName} holds no role. Giving them one starts their account afresh: their password, links, second factor and sessions stop working, the credentials of clients made in their name by others are revoked, and a console activation link goes to ${member.email}.</p>`}
      ${postForm({
        action: `${base}/staff/${member.id}/roles`,
        csrf: input.csrf,
        submit: 'Save roles',
        body: checkboxGroup({
          name: 'roles',
          label: `Roles of ${member.displayName}`,
          legendHidden: true,
          hint: 'Takes effect on their next click. Without any role they can no longer sign in to the console.',
          options: ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r], hint: `— ${ROLE_HINTS[r]}` })),
          values: input.roles,
          error: input.errors.roles,
        }),
      })}
    </section>
    <section class="panel" aria-labelledby="factor-heading">
      <h2 id="factor-heading">Second factor</h2>
      ${member.authenticatorSince
        ? html`<p>Lost phone and recovery codes? Resetting removes the authenticator app and the recovery codes and signs the person out everywhere; they set up a new app at their next sign-in.</p>
            <p><a class="button secondary" href="${base}/staff/${member.id}/reset-mfa">Reset second factor…</a></p>`
        : html`<p>None set up yet: ${member.displayName} sets up an authenticator app at their first sign-in, so there is nothing to reset.</p>`}
    </section>`;
}

export function resetConfirmation(input: { base: string; csrf: string; member: StaffMemberView }): SafeHtml {
  if (!input.member.authenticatorSince) {
    return html`<p>
        <strong>${input.member.displayName}</strong> has no second factor yet: they set up an authenticator app at their
        first sign-in, so there is nothing to reset.
      </p>
      <p><a href="${input.base}/staff/${input.member.id}">Back to ${input.member.displayName}</a></p>`;
  }
  return html`<p>
      This removes the authenticator app and every recovery code of <strong>${input.member.displayName}</strong>
      (<code>${input.member.username}</code>) and ends all their sessions. At their next sign-in they set up a new
      authenticator app. Only do this when you are sure who asked.
    </p>
    ${postForm({
      action: `${input.base}/staff/${input.member.id}/reset-mfa`,
      csrf: input.csrf,
      submit: 'Reset the second factor',
      button: 'danger',
      body: html``,
      aside: html`<a href="${input.base}/staff/${input.member.id}">Cancel</a>`,
    })}`;
}
