import {
  type FieldErrors,
  type SafeHtml,
  formError,
  hiddenInputs,
  html,
  inputField,
  postForm,
  secretField,
  signInRefusal,
} from '@gatehouse/views';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PasswordRejection, type PasswordVerdict } from '@gatehouse/accounts';
import type { SessionFlash } from '@gatehouse/sessions';

export const LOGIN_FAILED = 'The username or password is incorrect, or the account cannot sign in right now.';

/**
 * What a refused login says. A lock is named with its end, for a username with or without an
 * account alike (both count and lock the same way), so it tells nothing about which it is.
 */
export function loginRefusal(lockedUntil: Date | null, now = new Date()): string {
  return signInRefusal(lockedUntil, LOGIN_FAILED, now);
}

export const PASSWORD_CHANGED: SessionFlash = {
  kind: 'success',
  text: 'Your password has been changed. Your other sessions have ended, and we sent you an email about the change.',
};

/** The message beside "Current password" when it was wrong (and maybe locked the account). */
export function wrongCurrentMessage(lockedUntil: Date | null, now = new Date()): string {
  const refusal = signInRefusal(lockedUntil, '', now);
  return refusal ? `Too many wrong passwords. ${refusal}` : 'The current password is incorrect.';
}

/** A refused new password as an error beside the field to fix. */
export function passwordFieldErrors(verdict: PasswordVerdict): FieldErrors {
  if (verdict.ok) return {};
  return verdict.reason === PasswordRejection.Mismatch ? { confirmPassword: verdict.message } : { newPassword: verdict.message };
}

export function loginPage(input: { csrf: string; returnTo: string; username?: string; error?: string }): SafeHtml {
  const invalid = Boolean(input.error);
  return html`${formError(input.error)}
    <p>Log in with your username and your password. Your username is in the mail that set up your account.</p>
    ${postForm({
      action: '/login',
      csrf: input.csrf,
      submit: 'Log in',
      body: html`${hiddenInputs({ returnTo: input.returnTo })}
      ${inputField({
        name: 'username',
        label: 'Username',
        value: input.username,
        autocomplete: 'username',
        verbatim: true,
        required: true,
        invalid,
        describedBy: invalid ? 'form-error' : undefined,
      })}
      ${secretField({
        name: 'password',
        label: 'Password',
        autocomplete: 'current-password',
        required: true,
        invalid,
        describedBy: invalid ? 'form-error' : undefined,
      })}`,
    })}
    <ul class="links">
      <li><a href="/password-reset">Forgot your password?</a></li>
      <li>No account yet? <a href="/request-access">Request access</a></li>
    </ul>`;
}

const RULES = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters. A passphrase of several words works well. Common passwords and your username are refused.`;

/**
 * New password and its repetition, with the policy as the hint and errors beside each.
 * `formError`: the form-wide message is about the new password (it is then tied to that field).
 */
export function newPasswordFields(errors: FieldErrors = {}, formError = false): SafeHtml {
  return html`${secretField({
    name: 'newPassword',
    id: 'new-password',
    label: 'New password',
    hint: RULES,
    autocomplete: 'new-password',
    minlength: PASSWORD_MIN_LENGTH,
    required: true,
    error: errors.newPassword,
    invalid: formError,
    describedBy: formError ? 'form-error' : undefined,
  })}
  ${secretField({
    name: 'confirmPassword',
    id: 'confirm-password',
    label: 'Repeat the new password',
    autocomplete: 'new-password',
    required: true,
    error: errors.confirmPassword,
  })}`;
}

export function passwordPage(input: {
  csrf: string;
  returnTo: string;
  forced: boolean;
  error?: string;
  errors?: FieldErrors;
}): SafeHtml {
  const errors = input.errors ?? {};
  const summary = input.error ?? (Object.keys(errors).length ? 'Your password was not changed. See the message beside the field.' : undefined);
  return html`${formError(summary)}
    ${input.forced
      ? html`<p class="notice">
          You signed in with a password that was issued to you. Choose your own password to continue.
        </p>`
      : html`<p>Choose a new password. Your other sessions end when it changes, and you get an email about it.</p>`}
    ${postForm({
      action: '/password',
      csrf: input.csrf,
      submit: 'Change password',
      body: html`${hiddenInputs({ returnTo: input.returnTo })}
      ${secretField({
        name: 'currentPassword',
        id: 'current-password',
        label: 'Current password',
        autocomplete: 'current-password',
        required: true,
        error: errors.currentPassword,
      })}
      ${newPasswordFields(errors)}`,
    })}`;
}

export function activationPage(input: {
  csrf: string;
  action: string;
  username: string;
  error?: string;
  errors?: FieldErrors;
}): SafeHtml {
  return html`${formError(input.error)}
    <p>Choose a password for the account <strong>${input.username}</strong>.</p>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Set password',
      body: html`<input type="text" name="username" value="${input.username}" autocomplete="username" hidden />
      ${newPasswordFields(input.errors, Boolean(input.error))}`,
    })}`;
}

export function messagePage(text: string, link?: { href: string; label: string }): SafeHtml {
  return html`<p>${text}</p>
    ${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`;
}

/** The invitation link for someone without a password: choose one first, then accept. */
export function invitationPasswordPage(input: {
  csrf: string;
  action: string;
  username: string;
  until: string;
  error?: string;
  errors?: FieldErrors;
}): SafeHtml {
  return html`${formError(input.error)}
    <p>
      You have been invited to private documentation. Your account <strong>${input.username}</strong> has no password
      yet: choose one now, then accept the invitation.
    </p>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Set password and continue',
      body: html`<input type="text" name="username" value="${input.username}" autocomplete="username" hidden />
        ${newPasswordFields(input.errors, Boolean(input.error))}
        <p class="hint">This link can set your password until ${input.until}.</p>`,
    })}`;
}
