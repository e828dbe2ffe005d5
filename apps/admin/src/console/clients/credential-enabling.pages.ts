import { type SafeHtml, badge, html, postForm, utc } from '@gatehouse/views';
import { lastUseCell } from '../credentials/credentials.pages.js';

/** Where a kind's credentials live under the client's path (the REST twin's segments). */
export type CredentialSegment = 'secrets' | 'certificates' | 'federated-credentials';

/** "disabled as stale on <date>", for a credential the stale-credential job disabled; nothing otherwise. */
export function disabledNote(disabledAt: string | null): SafeHtml | string {
  if (!disabledAt) return '';
  const at = new Date(disabledAt);
  return html`${badge('disabled', 'warn')}
    <span class="hint">as stale on <time datetime="${at.toISOString()}">${utc(at)}</time></span>`;
}

/** A credential's last use, and below it whether it was disabled as stale. */
export function lastUseAndState(c: { lastUsedAt: string | null; lastUsedFrom: string | null; disabledAt: string | null }): SafeHtml {
  return html`${lastUseCell(c.lastUsedAt, c.lastUsedFrom)}${c.disabledAt ? html`<br />${disabledNote(c.disabledAt)}` : ''}`;
}

/** The "Enable again" link beside a disabled credential (its confirmation page asks once). */
export function enableAgainLink(clientPath: string, segment: CredentialSegment, key: string, label: string): SafeHtml {
  return html`<a class="button secondary" href="${clientPath}/${segment}/${key}/enable"
    >Enable again<span class="visually-hidden"> ${label}</span></a
  >`;
}

/** The question before enabling: what comes back, that its stale period starts afresh, one button. */
export function enableConfirmation(input: {
  action: string;
  back: string;
  csrf: string;
  object: SafeHtml;
  disabledAt: string;
  staleDays: number;
}): SafeHtml {
  return html`<p>${input.object}</p>
    <p>
      It was disabled as stale on ${utc(new Date(input.disabledAt))}: no token was issued with it for the tenant's stale
      period.
    </p>
    <p class="notice">
      Enabled again, token requests with it work at once. Its unused period counts afresh from now: unused for another
      ${input.staleDays} days, it is reported and disabled again.
    </p>
    ${postForm({ action: input.action, csrf: input.csrf, submit: 'Enable again', body: html``, aside: html`<a href="${input.back}">Cancel</a>` })}`;
}
