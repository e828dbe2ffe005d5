import { type HandoverContact, HandoverErrorCode } from '@gatehouse/handovers';
import { AccessRequestErrorCode } from '@gatehouse/requests';
import { html } from '@gatehouse/views';
import { LINK_HEADERS, gone, linkNotFound } from './link-errors.js';
import { askWhom } from './pages/handover.pages.js';
import { utc } from './pages/request.pages.js';
import { WebPageError } from './web.errors.js';

/** The page for a confirmation link that cannot be used. */
export function confirmationRefusal(code: AccessRequestErrorCode): WebPageError {
  switch (code) {
    case AccessRequestErrorCode.AlreadyConfirmed:
      return gone(html`This request has already been confirmed. You will receive an email when it has been decided.`);
    case AccessRequestErrorCode.LinkExpired:
      return gone(
        html`This link has expired: the request was not confirmed within 24 hours, so it was dropped. Please
          <a href="/request-access">send a new request</a>.`,
      );
    case AccessRequestErrorCode.LinkNotFound:
    case AccessRequestErrorCode.NotFound:
      return linkNotFound();
    default:
      return new WebPageError(400, 'Request refused', 'This link cannot be used.', LINK_HEADERS);
  }
}

/** Who sent a handover link, as its refusal page names them. */
export interface HandoverSender {
  revealedAt?: Date | null;
  contact: HandoverContact | null;
  tenantName: string;
}

/** The page for a handover link that cannot be revealed (again), naming whom to ask. */
export function handoverRefusal(code: HandoverErrorCode, sender?: HandoverSender): WebPageError {
  const ask = sender ? askWhom(sender.contact, sender.tenantName) : html`your contact person`;
  switch (code) {
    case HandoverErrorCode.AlreadyRevealed:
      return gone(
        html`These credentials were revealed${sender?.revealedAt ? ` on ${utc(sender.revealedAt)}` : ''} and are not shown
          again. If you did not see them yourself, ask ${ask} at once to revoke them and send new ones.`,
      );
    case HandoverErrorCode.Expired:
      return gone(html`This link has expired; no secret was created. Please ask ${ask} for a new one.`);
    case HandoverErrorCode.Revoked:
      return gone(html`This link has been withdrawn by the sender. Please ask ${ask}.`);
    case HandoverErrorCode.NotFound:
      return linkNotFound();
    default:
      return new WebPageError(400, 'Request refused', 'This link cannot be used.', LINK_HEADERS);
  }
}

/** The page for a handover whose secret the tenant's credential policy no longer allows (nothing was used up). */
export function handoverPolicyRefusal(reason: string, sender?: HandoverSender): WebPageError {
  const ask = sender ? askWhom(sender.contact, sender.tenantName) : html`your contact person`;
  return new WebPageError(
    409,
    'Credentials not created',
    html`${reason} No secret was created and the link still works; please ask ${ask} for credentials the policy allows.`,
    LINK_HEADERS,
  );
}
