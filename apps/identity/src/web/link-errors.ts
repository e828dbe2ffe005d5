import { AccountError, AccountErrorCode } from '@gatehouse/accounts';
import { InvitationError, InvitationErrorCode } from '@gatehouse/invitations';
import { type SafeHtml, html, utc } from '@gatehouse/views';
import { askContact } from './pages/content.pages.js';
import { WebPageError, notFound } from './web.errors.js';

/** Headers of every link page: the token must not leak through Referer, nor stay in a cache. */
export const LINK_HEADERS = { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };

export const gone = (detail: SafeHtml) => new WebPageError(410, 'This link no longer works', detail, LINK_HEADERS);

/** What a refusal page can say about the link: whom to ask, and when a newer link replaced it. */
export interface LinkFacts {
  contactEmail?: string;
  contactName?: string;
  newerLinkSentAt?: Date;
}

/**
 * The page for an invitation link that cannot be used; every code is mapped (the switch is
 * exhaustive). Shown to every visitor, signed in or not: it names no documentation section.
 */
export function invitationRefusal(code: InvitationErrorCode, facts: LinkFacts = {}): WebPageError {
  const ask = askContact(facts.contactEmail, facts.contactName);
  switch (code) {
    case InvitationErrorCode.Expired:
      return gone(html`This invitation has expired. ${ask}`);
    case InvitationErrorCode.Revoked:
      return gone(html`This invitation has been withdrawn. ${ask}`);
    case InvitationErrorCode.AlreadyAccepted:
      return gone(
        html`This invitation has already been used. Its sections are under <a href="/docs">Documentation</a> once you
          log in. If something is missing: ${ask}`,
      );
    case InvitationErrorCode.Superseded:
      return gone(
        facts.newerLinkSentAt
          ? html`A newer link was sent to you on ${utc(facts.newerLinkSentAt)}. Please use the link in that mail; this
              one no longer works. ${ask}`
          : html`A newer link was sent to you. Please use the link in the newest mail; this one no longer works. ${ask}`,
      );
    case InvitationErrorCode.PasswordWindowClosed:
      return gone(
        html`This link could set your password for 24 hours after it was sent, and that time is over. ${ask} The new
          link will let you choose your password and accept.`,
      );
    case InvitationErrorCode.PasswordAlreadySet:
      return new WebPageError(409, 'You have a password', html`Your password is set. <a href="/login">Log in</a>, then open the link again to accept.`, LINK_HEADERS);
    case InvitationErrorCode.WrongUser:
      return new WebPageError(
        403,
        'Not your invitation',
        'This invitation was sent to another account. Log out and log in as the invited user.',
        LINK_HEADERS,
      );
    case InvitationErrorCode.UserDisabled:
      return gone(html`The account this invitation is for is disabled, so the invitation cannot be used now. ${ask}`);
    case InvitationErrorCode.NotFound:
    case InvitationErrorCode.UserNotFound:
    case InvitationErrorCode.UnknownSections:
    case InvitationErrorCode.InvalidExpiry:
    case InvitationErrorCode.NotPending:
      return linkNotFound();
    default:
      return unmapped(code);
  }
}

/** Where a person gets a new link to choose a password themselves. */
const NEW_LINK = html`<a href="/password-reset">Ask for a new link</a> with your username or email address.`;

/** The page for an activation or reset link that cannot be used: the way forward is a new link of one's own. */
export function activationRefusal(code: AccountErrorCode): WebPageError {
  switch (code) {
    case AccountErrorCode.LinkUsed:
      return gone(html`This link has already been used. If you need to set your password again: ${NEW_LINK}`);
    case AccountErrorCode.LinkExpired:
      return gone(html`This link has expired. ${NEW_LINK}`);
    case AccountErrorCode.LinkNotFound:
    case AccountErrorCode.NotFound:
      return linkNotFound();
    default:
      return new WebPageError(400, 'Request refused', 'This link cannot be used.', LINK_HEADERS);
  }
}

/** The page for a "Forgot your password?" link that cannot be used (used, replaced by a newer one, or past its hour). */
export function resetLinkRefusal(code: AccountErrorCode): WebPageError {
  switch (code) {
    case AccountErrorCode.LinkUsed:
      return gone(
        html`This link has already been used, or a newer link replaced it: only the newest link works. If you still need
          to choose a password: ${NEW_LINK}`,
      );
    case AccountErrorCode.LinkExpired:
      return gone(html`This link has expired: it works for one hour. ${NEW_LINK}`);
    default:
      return activationRefusal(code);
  }
}

export function isInvitationError(error: unknown): error is InvitationError {
  return error instanceof InvitationError;
}

export function isAccountError(error: unknown): error is AccountError {
  return error instanceof AccountError;
}

export function linkNotFound(): WebPageError {
  const page = notFound();
  return new WebPageError(404, 'Link not found', 'This link is not valid. Check that you copied it completely.', {
    ...page.headers,
    ...LINK_HEADERS,
  });
}

function unmapped(code: never): never {
  throw new Error(`unmapped invitation error ${String(code)}`);
}
