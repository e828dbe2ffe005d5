import { type SafeHtml, html } from '@gatehouse/views';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@gatehouse/accounts';

export const LOGIN_FAILED = 'The username or password is incorrect, or the account cannot sign in right now.';

function message(error: string | undefined): SafeHtml {
  return error ? html`<p class="error" role="alert" id="form-error">${error}</p>` : html``;
}

export function loginPage(input: { csrf: string; returnTo: string; username?: string; error?: string }): SafeHtml {
  return html`${message(input.error)}
    <p>Sign in with the username and password you received from your contact person.</p>
    <form class="stack" method="post" action="/login">
      <input type="hidden" name="_csrf" value="${input.csrf}" />
      <input type="hidden" name="returnTo" value="${input.returnTo}" />
      <label for="username"
        >Username
        <input
          type="text"
          id="username"
          name="username"
          autocomplete="username"
          autocapitalize="none"
          spellcheck="false"
          required
          value="${input.username ?? ''}"
        />
      </label>
      <label for="password"
        >Password
        <input type="password" id="password" name="password" autocomplete="current-password" required />
      </label>
      <div><button type="submit">Log in</button></div>
    </form>`;
}

const rules = html`<span class="hint" id="password-rules"
  >${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters. A passphrase of several words works well. Common
  passwords and your username are refused.</span
>`;

function newPasswordFields(): SafeHtml {
  return html`<label for="new-password"
      >New password ${rules}
      <input
        type="password"
        id="new-password"
        name="newPassword"
        autocomplete="new-password"
        minlength="${PASSWORD_MIN_LENGTH}"
        required
        aria-describedby="password-rules"
      />
    </label>
    <label for="confirm-password"
      >Repeat the new password
      <input type="password" id="confirm-password" name="confirmPassword" autocomplete="new-password" required />
    </label>`;
}

export function passwordPage(input: { csrf: string; returnTo: string; forced: boolean; error?: string }): SafeHtml {
  return html`${message(input.error)}
    ${input.forced ? html`<p class="notice">You signed in with a password that was issued to you. Choose your own password to continue.</p>` : ''}
    <form class="stack" method="post" action="/password">
      <input type="hidden" name="_csrf" value="${input.csrf}" />
      <input type="hidden" name="returnTo" value="${input.returnTo}" />
      <label for="current-password"
        >Current password
        <input type="password" id="current-password" name="currentPassword" autocomplete="current-password" required />
      </label>
      ${newPasswordFields()}
      <div><button type="submit">Change password</button></div>
    </form>`;
}

export function activationPage(input: { csrf: string; action: string; username: string; error?: string }): SafeHtml {
  return html`${message(input.error)}
    <p>Choose a password for the account <strong>${input.username}</strong>.</p>
    <form class="stack" method="post" action="${input.action}">
      <input type="hidden" name="_csrf" value="${input.csrf}" />
      <input type="text" name="username" value="${input.username}" autocomplete="username" hidden />
      ${newPasswordFields()}
      <div><button type="submit">Set password</button></div>
    </form>`;
}

export function messagePage(text: string, link?: { href: string; label: string }): SafeHtml {
  return html`<p>${text}</p>
    ${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`;
}

/** The invitation link for someone without a password: choose one first, then accept. */
export function invitationPasswordPage(input: { csrf: string; action: string; username: string; until: string; error?: string }): SafeHtml {
  return html`${message(input.error)}
    <p>
      You have been invited to private documentation. Your account <strong>${input.username}</strong> has no password
      yet: choose one now, then accept the invitation.
    </p>
    <form class="stack" method="post" action="${input.action}">
      <input type="hidden" name="_csrf" value="${input.csrf}" />
      <input type="text" name="username" value="${input.username}" autocomplete="username" hidden />
      ${newPasswordFields()}
      <p class="hint">This link can set your password until ${input.until}.</p>
      <div><button type="submit">Set password and continue</button></div>
    </form>`;
}
