import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@gatehouse/accounts';
import {
  type FieldErrors,
  type SafeHtml,
  authenticationCodeField,
  codeField,
  formError,
  hiddenInputs,
  html,
  inputField,
  postForm,
  secretField,
} from '@gatehouse/views';

export const SIGN_IN_FAILED = 'The username or password is incorrect, or this account cannot sign in right now.';

interface FormBase {
  action: string;
  csrf: string;
  error?: string;
}

/**
 * The first step: username and password. `resetUrl` is the Web UI's "Forgot your password?" page
 * when it serves this tenant; elsewhere an Administrator resets the password.
 */
export function passwordStep(input: FormBase & { returnTo: string; username?: string; resetUrl?: string }): SafeHtml {
  const invalid = Boolean(input.error);
  const describedBy = invalid ? 'form-error' : undefined;
  return html`${formError(input.error)}
  ${postForm({
    action: input.action,
    csrf: input.csrf,
    submit: 'Continue',
    body: html`${hiddenInputs({ returnTo: input.returnTo })}
    ${inputField({ name: 'username', label: 'Username', value: input.username, autocomplete: 'username', verbatim: true, required: true, autofocus: !input.username, invalid, describedBy })}
    ${secretField({ name: 'password', label: 'Password', autocomplete: 'current-password', required: true, autofocus: Boolean(input.username), invalid, describedBy })}`,
  })}
  <ul class="links">
    <li>
      ${input.resetUrl
        ? html`<a href="${input.resetUrl}" id="forgot-password">Forgot your password?</a> You choose a new one by mail, then sign in here with it and
            your authenticator app as usual.`
        : 'Forgot your password? Ask an Administrator of this tenant to reset it.'}
    </li>
  </ul>
  <p class="hint">Staff only. After your password you enter a code from your authenticator app.</p>`;
}

/** A passkey button, shown by the console's script where the browser can use passkeys. */
export function passkeyButton(input: {
  mode: 'signin' | 'register';
  options: string;
  form: string;
  label: string;
  /** Shown with the button (a form the button fills in). */
  content?: SafeHtml;
}): SafeHtml {
  return html`<div class="passkey" data-passkey="${input.mode}" data-options="${input.options}" data-form="${input.form}" hidden>
    ${input.content ?? ''}
    <button type="button" class="secondary">${input.label}</button>
    <p class="hint" role="status"></p>
  </div>`;
}

export function codeStep(
  input: FormBase & { returnTo: string; username: string; cancel: string; passkey?: { options: string; action: string } },
): SafeHtml {
  return html`<p>Signed in as <strong>${input.username}</strong> with your password. Now the second factor.</p>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Sign in',
      body: html`${hiddenInputs({ returnTo: input.returnTo })}
      ${authenticationCodeField(input.error)}`,
      aside: html`<button type="submit" class="link" form="cancel-sign-in">Use another account</button>`,
    })}
    <form id="cancel-sign-in" method="post" action="${input.cancel}">${hiddenInputs({ _csrf: input.csrf })}</form>
    ${input.passkey
      ? html`<form id="passkey-sign-in" method="post" action="${input.passkey.action}">
            ${hiddenInputs({ _csrf: input.csrf, returnTo: input.returnTo, credential: '' })}
          </form>
          ${passkeyButton({ mode: 'signin', options: input.passkey.options, form: 'passkey-sign-in', label: 'Use a passkey instead' })}`
      : ''}`;
}

/** Groups of four characters, as authenticator apps show and accept them. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

export function enrolStep(input: FormBase & { secret: string; qr: SafeHtml; username: string; issuer: string }): SafeHtml {
  return html`<p>Set up the second factor for <strong>${input.username}</strong>. You need it at every sign-in.</p>
    <ol>
      <li>Open an authenticator app on your phone (any app for time-based codes works).</li>
      <li>
        Scan this QR code, or add the account by hand with the setup key below (time-based, 6 digits, 30 seconds).
        ${input.qr}
        <p>
          Setup key for <em>${input.issuer}</em>:
          <code class="secret" data-copy="setup key" data-secret="${input.secret}">${grouped(input.secret)}</code>
        </p>
      </li>
      <li>Enter the code the app shows now.</li>
    </ol>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Confirm',
      body: codeField({ name: 'code', label: 'Code from the app', error: input.error, required: true }),
    })}`;
}

export function recoveryCodesPage(input: { codes: string[]; next: string; nextLabel: string }): SafeHtml {
  return html`<div class="flash warning" role="status">
      <p>Save these recovery codes now: they are shown only this once. Each works once, in place of a code from your app.</p>
    </div>
    <ul class="codes" aria-label="Recovery codes" data-copy="recovery codes">
      ${input.codes.map((code) => html`<li>${code}</li>`)}
    </ul>
    <p>Keep them somewhere safe apart from your phone (a password manager, or printed). You can make new ones in My account; the old ones then stop working.</p>
    <p><a class="button" href="${input.next}">${input.nextLabel}</a></p>`;
}

const RULES = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters. A passphrase of several words works well. Common passwords and your username are refused.`;

export function choosePasswordStep(input: FormBase & { username: string; errors: FieldErrors }): SafeHtml {
  return html`<p>Welcome. Choose the password of your console account <strong>${input.username}</strong>; next you set up an authenticator app.</p>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Set password and continue',
      body: html`<input type="text" name="username" value="${input.username}" autocomplete="username" hidden />
      ${secretField({ name: 'newPassword', id: 'new-password', label: 'New password', hint: RULES, autocomplete: 'new-password', minlength: PASSWORD_MIN_LENGTH, required: true, error: input.errors.newPassword, autofocus: true })}
      ${secretField({ name: 'confirmPassword', id: 'confirm-password', label: 'Repeat the new password', autocomplete: 'new-password', required: true, error: input.errors.confirmPassword })}`,
    })}`;
}
