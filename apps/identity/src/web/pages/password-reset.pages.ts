import { type FieldErrors, type SafeHtml, authenticationCodeField, formError, html, inputField, postForm, utc } from '@gatehouse/views';
import { newPasswordFields } from './auth.pages.js';

/** "Forgot your password?": the username or the email address of the account. */
export function resetRequestPage(input: { csrf: string; value?: string; error?: string; alert?: string }): SafeHtml {
  return html`${formError(input.alert)}
    <p>
      Enter the username or the email address of your account. We send a link to choose a new password to the email
      address of the account; it works once, for one hour.
    </p>
    ${postForm({
      action: '/password-reset',
      csrf: input.csrf,
      submit: 'Send the link',
      aside: html`<a href="/login">Back to log in</a>`,
      body: inputField({
        name: 'identifier',
        label: 'Username or email address',
        value: input.value,
        autocomplete: 'username',
        verbatim: true,
        required: true,
        maxlength: 254,
        error: input.error,
        invalid: Boolean(input.alert),
        describedBy: input.alert ? 'form-error' : undefined,
      }),
    })}`;
}

/** The same answer whoever was named: nothing here says whether an account matched. */
export function resetRequestedPage(): SafeHtml {
  return html`<p class="notice" role="status">
      If an account matches what you entered, a link to choose a new password is on its way to the email address of
      that account.
    </p>
    <p>
      The link works once, for one hour; asking again makes the older link stop working. No mail after a few minutes?
      Check your spam folder, then try the other of username and email address. If you have no account yet,
      <a href="/request-access">request access</a>.
    </p>
    <p>
      Invited to the console and never signed in there? Your way in is the invitation's link; if it expired, ask an
      Administrator to send it again.
    </p>
    <p><a href="/login">Back to log in</a></p>`;
}

/**
 * The new password (and, for a person with a role and a second factor, their code: their password
 * never changes on one factor alone).
 */
export function resetPasswordPage(input: {
  csrf: string;
  action: string;
  username: string;
  expiresAt: Date;
  secondFactor: boolean;
  errors?: FieldErrors;
}): SafeHtml {
  const errors = input.errors ?? {};
  const summary = Object.keys(errors).length ? 'Your password was not changed. See the message beside the field.' : undefined;
  return html`${formError(summary)}
    <p>Choose a new password for the account <strong>${input.username}</strong>.</p>
    <p class="hint">
      Every session of the account ends when it changes. ${input.secondFactor
        ? 'Your account holds a role in the console, so the change needs your second factor too, and you keep using it to sign in.'
        : 'If you hold a role in the console, you still sign in there with your second factor.'}
      This link works until ${utc(input.expiresAt)}.
    </p>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Set the new password',
      body: html`<input type="text" name="username" value="${input.username}" autocomplete="username" hidden />
        ${newPasswordFields(errors)} ${input.secondFactor ? authenticationCodeField(errors.code, false) : ''}`,
    })}`;
}

export function passwordResetDonePage(holdsRole: boolean): SafeHtml {
  return html`<p class="notice" role="status">
      Your password has been changed, and every session of your account has ended. We sent you an email about it.
    </p>
    ${holdsRole
      ? html`<p>In the console you sign in with the new password and, as before, the code from your authenticator app.</p>`
      : ''}
    <p><a class="button" href="/login">Log in</a></p>`;
}
