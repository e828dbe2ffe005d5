import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type Role } from '@gatehouse/accounts';
import type { PasskeyView } from '@gatehouse/accounts';
import type { SessionView } from '@gatehouse/sessions';
import {
  type FieldErrors,
  type SafeHtml,
  badge,
  csrfInput,
  formError,
  hiddenInputs,
  html,
  inputField,
  postForm,
  secretField,
  table,
  timeTag,
} from '@gatehouse/views';
import { passkeyButton } from '../sign-in/sign-in.pages.js';
import { roleBadges } from '../staff/staff.pages.js';

export interface AccountSummary {
  displayName: string;
  username: string;
  roles: Role[];
  authenticatorSince: Date | null;
  recoveryCodesLeft: number;
}

/** "Firefox on Linux"-like, from a user agent; the full string stays in its title. */
export function browserOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent) ? 'Edge' : /Firefox\//.test(userAgent) ? 'Firefox' : /Chrom(e|ium)\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : 'A browser';
  const system = /Windows/.test(userAgent) ? 'Windows' : /Mac OS X/.test(userAgent) ? 'macOS' : /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Linux/.test(userAgent) ? 'Linux' : null;
  return system ? `${browser} on ${system}` : browser;
}

function sessionsTable(sessions: SessionView[]): SafeHtml {
  return table({
    caption: 'Your sessions that have not ended',
    columns: [
      { header: 'Where', cell: (s: SessionView) => html`${browserOf(s.userAgent)}${s.current ? html` ${badge('this session', 'good')}` : ''}` },
      { header: 'Kind', cell: (s) => (s.kind === 'console' ? 'Console' : 'Web UI') },
      { header: 'Address', cell: (s) => s.source ?? '—' },
      { header: 'Signed in', cell: (s) => timeTag(s.createdAt) },
      { header: 'Last active', cell: (s) => timeTag(s.lastSeenAt) },
    ],
    rows: sessions,
    empty: 'No sessions.',
  });
}

function passkeys(base: string, csrf: string, keys: PasskeyView[]): SafeHtml {
  const list = table({
    caption: 'Your passkeys',
    columns: [
      { header: 'Name', cell: (k: PasskeyView) => k.name },
      { header: 'Added', cell: (k) => timeTag(k.createdAt) },
      { header: 'Last used', cell: (k) => (k.lastUsedAt ? timeTag(k.lastUsedAt) : 'never') },
      {
        header: 'Remove',
        cell: (k) =>
          postForm({ action: `${base}/account/passkeys/${k.id}/remove`, csrf, submit: `Remove ${k.name}`, className: 'actions', button: 'secondary', body: html`` }),
      },
    ],
    rows: keys,
    empty: 'No passkeys yet. A passkey (your device’s screen lock or a security key) can replace the code at sign-in.',
  });
  return html`<h3>Passkeys</h3>
    ${list}
    ${passkeyButton({
      mode: 'register',
      options: `${base}/account/passkeys/options`,
      form: 'passkey-register',
      label: 'Add a passkey',
      content: html`<form id="passkey-register" method="post" action="${base}/account/passkeys" class="stack">
        ${csrfInput(csrf)} ${hiddenInputs({ credential: '' })}
        ${inputField({ name: 'name', id: 'passkey-name', label: 'Name of a new passkey', hint: 'So you can tell them apart, e.g. "Work laptop".', value: '', maxlength: 60 })}
      </form>`,
    })}
    <noscript><p class="hint">Adding or using a passkey needs JavaScript.</p></noscript>`;
}

export function accountPage(input: {
  base: string;
  csrf: string;
  me: AccountSummary;
  sessions: SessionView[];
  passkeys: PasskeyView[];
}): SafeHtml {
  const { base, csrf, me } = input;
  const others = input.sessions.filter((s) => !s.current).length;
  return html`<section class="panel" aria-labelledby="me">
      <h2 id="me">You</h2>
      <dl class="summary">
        <dt>Name</dt>
        <dd>${me.displayName}</dd>
        <dt>Username</dt>
        <dd><code>${me.username}</code></dd>
        <dt>Roles</dt>
        <dd>${roleBadges(me.roles)}</dd>
      </dl>
    </section>
    <section class="panel" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <p>Change it when you think someone else may know it. Your other sessions end when it changes.</p>
      <p><a class="button secondary" href="${base}/account/password">Change password</a></p>
    </section>
    <section class="panel" aria-labelledby="factors-heading">
      <h2 id="factors-heading">Second factor</h2>
      <dl class="summary">
        <dt>Authenticator app</dt>
        <dd>${me.authenticatorSince ? html`${badge('set up', 'good')} ${timeTag(me.authenticatorSince)}` : badge('not set up', 'warn')}</dd>
        <dt>Recovery codes</dt>
        <dd>${me.recoveryCodesLeft} of 10 left${me.recoveryCodesLeft <= 3 ? html` ${badge('running low', 'warn')}` : ''}</dd>
      </dl>
      <p>New recovery codes replace all the old ones, used or not. You may be asked for a code from your app first.</p>
      ${postForm({ action: `${base}/account/recovery-codes`, csrf, submit: 'Make new recovery codes', className: 'actions', button: 'secondary', body: html`` })}
      <p class="hint">Lost your phone? Sign in with a recovery code, then ask an Administrator to reset your second factor.</p>
      ${me.authenticatorSince ? passkeys(base, csrf, input.passkeys) : ''}
    </section>
    <section class="panel" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      ${sessionsTable(input.sessions)}
      ${others
        ? postForm({ action: `${base}/account/sessions/end-others`, csrf, submit: `Sign out the ${others} other session${others === 1 ? '' : 's'}`, className: 'actions', button: 'secondary', body: html`` })
        : html`<p class="hint">This is your only session.</p>`}
    </section>`;
}

const RULES = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters. A passphrase of several words works well. Common passwords and your username are refused.`;

export function passwordForm(input: { base: string; csrf: string; forced: boolean; errors: FieldErrors }): SafeHtml {
  const { errors } = input;
  return html`${formError(Object.keys(errors).length ? 'Your password was not changed. See the message beside the field.' : undefined)}
    ${input.forced ? html`<p class="notice">Your password was issued to you. Choose your own before you continue.</p>` : ''}
    ${postForm({
      action: `${input.base}/account/password`,
      csrf: input.csrf,
      submit: 'Change password',
      aside: input.forced ? undefined : html`<a href="${input.base}/account">Cancel</a>`,
      body: html`${secretField({ name: 'currentPassword', id: 'current-password', label: 'Current password', autocomplete: 'current-password', required: true, error: errors.currentPassword })}
      ${secretField({ name: 'newPassword', id: 'new-password', label: 'New password', hint: RULES, autocomplete: 'new-password', required: true, error: errors.newPassword })}
      ${secretField({ name: 'confirmPassword', id: 'confirm-password', label: 'Repeat the new password', autocomplete: 'new-password', required: true, error: errors.confirmPassword })}`,
    })}`;
}
