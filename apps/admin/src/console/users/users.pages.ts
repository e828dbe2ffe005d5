import { ROLES, ROLE_NAMES, type UserView } from '@gatehouse/accounts';
import {
  type FieldErrors,
  type Option,
  type SafeHtml,
  badge,
  checkboxGroup,
  filterForm,
  listUrl,
  formError,
  html,
  inputField,
  pager,
  postForm,
  selectField,
  table,
  timeTag,
} from '@gatehouse/views';
import { roleBadges } from '../staff/staff.pages.js';

/** The list's filters as they stand in the URL. */
export interface UserListFilters {
  q?: string;
  status?: string;
  role?: string;
  invitations?: string;
  /** `name`, `-name`, `username`, …; `''`: newest first. */
  sort?: string;
}

export const STATUS_OPTIONS: Option[] = [
  { value: '', label: 'Any status' },
  { value: 'active', label: 'Active' },
  { value: 'locked', label: 'Locked' },
  { value: 'disabled', label: 'Disabled' },
];

const ROLE_OPTIONS: Option[] = [{ value: '', label: 'Any role' }, ...ROLES.map((r) => ({ value: r, label: ROLE_NAMES[r] }))];

/**
 * The status as one word. `invitedUntil`: the person has not set a password yet, and their newest
 * link works until then ("invited") or worked until then ("invitation expired").
 */
export function userStatusBadge(user: Pick<UserView, 'status' | 'lockedUntil'>, invitedUntil?: Date | null, now = new Date()): SafeHtml {
  if (user.status === 'disabled') return badge('disabled', 'bad');
  if (user.lockedUntil && new Date(user.lockedUntil) > now) return badge('locked', 'bad');
  if (invitedUntil) return invitedUntil > now ? badge('invited', 'warn') : badge('invitation expired', 'bad');
  return badge('active', 'good');
}

export function lastSignIn(user: Pick<UserView, 'lastSignInAt'>): SafeHtml | string {
  return user.lastSignInAt ? timeTag(new Date(user.lastSignInAt)) : 'never';
}

export interface UserListInput {
  base: string;
  filters: UserListFilters;
  users: UserView[];
  /** Who has not set a password yet, with the end of their newest link. */
  invited: ReadonlyMap<string, Date>;
  newer?: string;
  older?: string | null;
}

export function userList(input: UserListInput): SafeHtml {
  const { base, filters } = input;
  const filtered = Boolean(filters.q || filters.status || filters.role || filters.invitations);
  return html`${filterForm({
      action: `${base}/users`,
      submit: 'Search',
      keep: { sort: filters.sort, invitations: filters.invitations },
      fields: [
        { kind: 'text', name: 'q', label: 'Search', hint: 'Start of a name, username or email', value: filters.q },
        { kind: 'select', name: 'status', label: 'Status', options: STATUS_OPTIONS, value: filters.status },
        { kind: 'select', name: 'role', label: 'Role', options: ROLE_OPTIONS, value: filters.role },
      ],
    })}
    ${filters.invitations === 'expiring'
      ? html`<p class="notice">Showing users with an invitation expiring within 48 hours. <a href="${base}/users">Show all users</a></p>`
      : ''}
    ${table({
      caption: filters.sort ? 'Users of this tenant' : 'Users of this tenant, newest first',
      sorting: { current: filters.sort ?? '', url: (sort) => listUrl(`${base}/users`, { ...filters, sort }) },
      columns: [
        { header: 'Name', sort: 'name', cell: (u: UserView) => html`<a href="${base}/users/${u.id}">${u.displayName}</a>` },
        { header: 'Username', sort: 'username', cell: (u) => html`<code>${u.username}</code>` },
        { header: 'Email', sort: 'email', cell: (u) => u.email },
        { header: 'Status', cell: (u) => userStatusBadge(u, input.invited.get(u.id)) },
        { header: 'Roles', cell: (u) => (u.roles.length ? roleBadges(u.roles) : '—') },
        { header: 'Last sign-in', cell: (u) => lastSignIn(u) },
      ],
      rows: input.users,
      empty: filtered
        ? html`No user matches these filters. <a href="${base}/users">Clear the filters</a>, or create the user.`
        : 'No users yet. Create one with "New user", or approve an access request.',
    })}
    ${pager({
      path: `${base}/users`,
      filters: { ...filters },
      newer: input.newer,
      older: input.older,
      labels: filters.sort ? { newer: 'Previous', older: 'Next' } : undefined,
    })}`;
}

export interface NewUserForm {
  username?: string;
  email?: string;
  displayName?: string;
  access?: string;
  sections?: string[];
  expiresInHours?: string;
}

export interface NewUserInput {
  base: string;
  csrf: string;
  values: NewUserForm;
  errors: FieldErrors;
  sections: Option[];
  mayInvite: boolean;
  error?: string;
}

function accessChoice(input: NewUserInput): SafeHtml {
  if (!input.mayInvite || !input.sections.length) return html``;
  const { values, errors } = input;
  return html`${selectField({
      name: 'access',
      label: 'Documentation',
      hint: 'With an invitation the person also gets a link that opens the chosen sections once they have signed in.',
      value: values.access,
      options: [
        { value: '', label: 'No documentation yet (activation link only)' },
        { value: 'invitation', label: 'Invite to the sections chosen below' },
      ],
      error: errors.access,
    })}
    ${checkboxGroup({
      name: 'sections',
      label: 'Sections to invite to',
      options: input.sections,
      values: values.sections ?? [],
      error: errors.sections,
    })}
    ${inputField({ name: 'expiresInHours', label: 'Invitation valid for (hours)', hint: '1 to 720; 168 is a week.', value: values.expiresInHours ?? '168', inputmode: 'numeric', error: errors.expiresInHours })}`;
}

export function newUserForm(input: NewUserInput): SafeHtml {
  const { values, errors } = input;
  return html`${formError(input.error)}
    <p>The person gets an email with a link (valid 24 hours) to choose their password.</p>
    ${postForm({
      action: `${input.base}/users/new`,
      csrf: input.csrf,
      submit: 'Create user',
      aside: html`<a href="${input.base}/users">Cancel</a>`,
      body: html`${inputField({ name: 'displayName', label: 'Name', hint: 'As others see it, e.g. "Pat Partner".', value: values.displayName, required: true, error: errors.displayName })}
      ${inputField({ name: 'email', label: 'Email address', type: 'email', value: values.email, required: true, autocomplete: 'off', verbatim: true, error: errors.email })}
      ${inputField({ name: 'username', label: 'Username', hint: 'Letters, digits and . _ @ -. They sign in with it.', value: values.username, required: true, autocomplete: 'off', verbatim: true, error: errors.username })}
      ${accessChoice(input)}`,
    })}`;
}
