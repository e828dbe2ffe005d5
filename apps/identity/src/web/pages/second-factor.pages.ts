import { type SafeHtml, authenticationCodeField, hiddenInputs, html, postForm, wrongCodeRefusal } from '@gatehouse/views';

export const WRONG_CODE = 'That code did not work. Enter the code your authenticator app shows now; each code works once.';

/** What a refused code says: the lock and its end, when the wrong codes set one. */
export function codeRefusal(lockedUntil: Date | null, now = new Date()): string {
  return lockedUntil ? wrongCodeRefusal(lockedUntil, now) : WRONG_CODE;
}

/**
 * The second step for a person who holds a role: the code from their authenticator app (or a
 * recovery code), as at the console's sign-in.
 */
export function codePage(input: { csrf: string; returnTo: string; username: string; error?: string }): SafeHtml {
  return html`<p>
      Signed in as <strong>${input.username}</strong> with your password. Your account holds a role in the operators’
      console, so it needs your second factor here too.
    </p>
    ${postForm({
      action: '/login/code',
      csrf: input.csrf,
      submit: 'Continue',
      body: html`${hiddenInputs({ returnTo: input.returnTo })}
      ${authenticationCodeField(input.error)}`,
    })}`;
}

/** A person who holds a role but has no second factor yet: they set it up in the console first. */
export function enrolFirstPage(consoleSignIn: string): SafeHtml {
  return html`<p>
      Your account holds a role in the operators’ console, so it signs in with a second factor, here as there. You have
      not set one up yet: sign in to the console once, where you set up an authenticator app, then log in here again.
    </p>
    <p><a class="button" href="${consoleSignIn}">Sign in to the console</a> <a href="/login">Back to log in</a></p>`;
}
