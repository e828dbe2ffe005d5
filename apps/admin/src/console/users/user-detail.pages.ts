import type { UserView } from '@gatehouse/accounts';
import type { AuditEventView } from '@gatehouse/audit';
import type { SectionSummary } from '@gatehouse/docs';
import type { InvitationView } from '@gatehouse/invitations';
import {
  type FieldErrors,
  type Option,
  type SafeHtml,
  badge,
  checkboxGroup,
  duration,
  html,
  inputField,
  postForm,
  table,
  expiryTag,
  timeTag,
  utc,
} from '@gatehouse/views';
import { organisationLink } from '../organisations/organisations.pages.js';
import { roleBadges } from '../staff/staff.pages.js';
import { lastSignIn, userStatusBadge } from './users.pages.js';

/** What the signed-in person may do on this page (the permissions of the REST twins). */
export interface UserAbilities {
  manage: boolean;
  /** The user holds a role (staff). */
  staff: boolean;
  invite: boolean;
  docs: boolean;
  audit: boolean;
  /** Administrators change roles (on the Staff page). */
  roles: boolean;
}

export interface UserDetailInput {
  base: string;
  csrf: string;
  user: UserView;
  /** Not signed in with a password of their own yet: until when their newest link works. */
  invitedUntil: Date | null;
  may: UserAbilities;
  sections: SectionSummary[];
  /** Sections not yet open to the user, for the invitation form. */
  closed: Option[];
  invitations: InvitationView[];
  history: AuditEventView[] | null;
  /** Display names of the people named in the history, by user id. */
  actors: ReadonlyMap<string, string>;
  inviteValues: { sections: string[]; expiresInHours: string };
  inviteErrors: FieldErrors;
  /** The partner organisation the person belongs to. */
  organisation?: { id: string; name: string } | null;
}

/** "Locked until … (15 minutes) after 5 failed sign-in attempts in a row", or null when not locked. */
export function lockText(user: UserView, now = new Date()): string | null {
  if (!user.lockedUntil || new Date(user.lockedUntil) <= now) return null;
  const until = new Date(user.lockedUntil);
  return `Locked until ${utc(until)} (${duration(until, now)} from now) after ${user.failedSignIns} failed sign-in attempts in a row.`;
}

/** What the status says of someone who has not set a password yet. */
function invitedText(until: Date | null, now = new Date()): string | null {
  if (!until) return null;
  return until > now
    ? `Has not set a password yet; the link mailed to them works until ${utc(until)}.`
    : `Has not set a password yet; the link mailed to them expired at ${utc(until)}. Reset the password to send a new one.`;
}

const button = (action: string, csrf: string, label: string, kind: 'secondary' | 'danger' = 'secondary') =>
  postForm({ action, csrf, submit: label, button: kind, className: 'inline', body: html`` });

function profile({ base, user, may, organisation }: UserDetailInput): SafeHtml {
  return html`<section class="panel" aria-labelledby="profile"><h2 id="profile">Profile</h2>
    <dl class="summary">
      <dt>Username</dt><dd><code>${user.username}</code></dd>
      <dt>Email</dt><dd>${user.email}</dd>
      <dt>Organisation</dt><dd>${organisationLink(base, organisation ?? null)}</dd>
      <dt>Roles</dt><dd>${user.roles.length ? roleBadges(user.roles) : 'none (not staff)'}${may.roles ? html` <a href="${base}/staff/${user.id}">Change on the Staff page</a>` : ''}</dd>
      <dt>Created</dt><dd>${timeTag(new Date(user.createdAt))}</dd>
      <dt>Last sign-in</dt><dd>${lastSignIn(user)}</dd>
    </dl></section>`;
}

function status(input: UserDetailInput): SafeHtml {
  const { base, csrf, user, may } = input;
  const lock = lockText(user);
  const path = `${base}/users/${user.id}`;
  const actions = may.manage
    ? html`<div class="actions">
        ${user.status === 'active'
          ? html`<a class="button danger" href="${path}/disable">Disable…</a>`
          : button(`${path}/enable`, csrf, 'Enable')}
        ${lock ? button(`${path}/unlock`, csrf, 'Unlock') : ''}
        <a class="button secondary" href="${path}/reset-password">Reset password…</a>
      </div>`
    : may.staff
      ? html`<p class="hint">${user.displayName} holds a role: only an Administrator manages their account.</p>`
      : '';
  return html`<section class="panel" aria-labelledby="status"><h2 id="status">Status</h2>
    <p>${userStatusBadge(user, input.invitedUntil)} ${user.status === 'disabled' ? 'Cannot sign in; their clients get no tokens.' : lock ?? invitedText(input.invitedUntil) ?? 'Can sign in.'}
      ${user.mustChangePassword ? ' Must choose a new password at the next sign-in.' : ''}</p>
    ${actions}</section>`;
}

function documentation(input: UserDetailInput): SafeHtml {
  const { base, csrf, user, may } = input;
  const list = table({
    caption: `Documentation sections open to ${user.displayName}`,
    columns: [
      { header: 'Section', cell: (s: SectionSummary) => html`${s.title} <code>${s.slug}</code>` },
      ...(may.docs ? [{ header: 'Access', cell: (s: SectionSummary) => html`<a href="${base}/users/${user.id}/sections/${s.slug}/close">Close…</a>` }] : []),
    ],
    rows: input.sections,
    empty: 'No section is open to this user yet.',
  });
  const open = may.invite && input.closed.length
    ? postForm({
        action: `${base}/users/${user.id}/invitations`,
        csrf,
        submit: 'Send invitation',
        button: 'secondary',
        body: html`${checkboxGroup({ name: 'sections', label: 'Open sections by invitation', hint: 'The user gets a link; the sections open when they accept it.', options: input.closed, values: input.inviteValues.sections, error: input.inviteErrors.sections })}
        ${inputField({ name: 'expiresInHours', id: 'invite-hours', label: 'Link valid for (hours)', value: input.inviteValues.expiresInHours, inputmode: 'numeric', error: input.inviteErrors.expiresInHours })}`,
      })
    : '';
  return html`<section class="panel" aria-labelledby="docs"><h2 id="docs">Documentation</h2>${list}${open}</section>`;
}

const INVITATION_TONE = { pending: 'warn', accepted: 'good', expired: 'neutral', revoked: 'bad' } as const;

function invitations(input: UserDetailInput): SafeHtml {
  const { base, csrf, user, may } = input;
  const path = `${base}/users/${user.id}/invitations`;
  return html`<section class="panel" aria-labelledby="invitations"><h2 id="invitations">Invitations</h2>
    ${table({
      caption: `Invitations of ${user.displayName}`,
      columns: [
        { header: 'Sections', cell: (i: InvitationView) => html`${i.sections.map((s) => html`<code>${s}</code> `)}` },
        { header: 'Status', cell: (i) => badge(i.status, INVITATION_TONE[i.status]) },
        { header: 'Sent', cell: (i) => timeTag(new Date(i.createdAt)) },
        { header: 'Expires', cell: (i) => (i.status === 'pending' ? expiryTag(new Date(i.expiresAt)) : '—') },
        ...(may.invite
          ? [{
              header: 'Actions',
              cell: (i: InvitationView) =>
                i.status === 'pending'
                  ? html`<div class="actions">${button(`${path}/${i.id}/resend`, csrf, 'Resend')}<a href="${path}/${i.id}/revoke">Revoke…</a></div>`
                  : '—',
            }]
          : []),
      ],
      rows: input.invitations,
      empty: 'No invitations yet.',
    })}</section>`;
}

function actorCell(input: UserDetailInput, event: AuditEventView): SafeHtml | string {
  const { userId, clientId, type } = event.actor;
  if (!userId) return type === 'system' ? 'Gatehouse' : html`client <code>${clientId ?? type}</code>`;
  const name = userId === input.user.id ? 'this user' : (event.actor.name ?? input.actors.get(userId) ?? 'a former user');
  return html`<a href="${input.base}/users/${userId}">${name}</a>${clientId ? html` (with client <code>${clientId}</code>)` : ''}`;
}

function history(input: UserDetailInput): SafeHtml {
  const body = input.history === null
    ? html`<p>Your roles do not include the audit log.</p>`
    : table({
        caption: `Audit events about ${input.user.displayName}, newest first`,
        columns: [
          { header: 'Time', cell: (e: AuditEventView) => timeTag(new Date(e.occurredAt)) },
          { header: 'Action', cell: (e) => html`<code>${e.action}</code>` },
          { header: 'By', cell: (e) => actorCell(input, e) },
        ],
        rows: input.history,
        empty: 'Nothing recorded yet.',
      });
  return html`<section class="panel" aria-labelledby="history"><h2 id="history">History</h2>${body}</section>`;
}

export function userDetail(input: UserDetailInput): SafeHtml {
  return html`${profile(input)}${status(input)}${documentation(input)}${invitations(input)}${history(input)}`;
}

/** A confirmation page: what happens to whom, one button, Cancel back to the user (and maybe another way). */
export function confirmation(input: { base: string; csrf: string; user: UserView; action: string; effect: SafeHtml | string; submit: string; alternative?: SafeHtml }): SafeHtml {
  return html`<p>${input.effect}</p>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: input.submit,
      button: 'danger',
      body: html``,
      aside: html`<a href="${input.base}/users/${input.user.id}">Cancel</a>`,
    })}
    ${input.alternative ?? ''}`;
}

/** The other way to reset: a one-time password the staff member hands over (asks for a fresh second factor). */
export function generateAlternative(input: { base: string; csrf: string; user: UserView }): SafeHtml {
  return html`<details class="alternative">
    <summary>Or generate a one-time password to hand over yourself</summary>
    <p>Shown to you once; ${input.user.displayName} must replace it at the first sign-in. This asks for a fresh code from your authenticator app.</p>
    ${postForm({ action: `${input.base}/users/${input.user.id}/reset-password/generate`, csrf: input.csrf, submit: 'Generate a one-time password', button: 'secondary', body: html`` })}
  </details>`;
}

/** The generated password, once: copy it now, leaving the page loses it. */
export function generatedPassword(input: { base: string; user: UserView; password: string }): SafeHtml {
  return html`<p>Give it to ${input.user.displayName} through a channel you trust (not the email address on file if that may be the problem). It is shown only on this page: leaving or reloading it loses the password, and a new reset would be needed.</p>
    <p><code class="secret" data-copy="one-time password">${input.password}</code></p>
    <p>At the first sign-in ${input.user.displayName} must choose a new password.</p>
    <p><a href="${input.base}/users/${input.user.id}">Back to ${input.user.displayName}</a></p>`;
}
