import { EMAIL_STATUSES, type EmailStatus, type EmailView } from '@gatehouse/mail';
import type { TwoWayPage } from '@gatehouse/database';
import { type BadgeTone, type SafeHtml, badge, filterForm, formError, html, pager, postForm, table, timeTag } from '@gatehouse/views';

const TONES: Record<EmailStatus, BadgeTone> = { queued: 'neutral', sending: 'neutral', sent: 'good', failed: 'warn', abandoned: 'bad' };
const RETRYABLE: readonly EmailStatus[] = ['failed', 'abandoned'];

export function statusBadge(status: EmailStatus): SafeHtml {
  return badge(status, TONES[status]);
}

export function isRetryable(email: EmailView): boolean {
  return RETRYABLE.includes(email.status);
}

/** When the next attempt is: a time to come, or due now (the next delivery run takes it). */
function nextAttempt(at: string | null): SafeHtml | '' {
  if (!at) return '';
  const due = new Date(at);
  return due.getTime() > Date.now() ? html`Next attempt ${timeTag(due)}` : html`Due now: the next delivery run sends it`;
}

function progress(email: EmailView): SafeHtml {
  const next = nextAttempt(email.nextAttemptAt);
  const sent = email.sentAt ? html`Sent ${timeTag(new Date(email.sentAt))}` : '';
  const error = email.lastError ? html`<span class="hint">Last error: ${email.lastError}</span>` : '';
  return html`${sent}${next}${(sent || next) && error ? html`<br />` : ''}${error}${!sent && !next && !error ? '—' : ''}`;
}

export function emailList(input: { base: string; status?: string; page: TwoWayPage<EmailView> | null; error?: string }): SafeHtml {
  const path = `${input.base}/email`;
  const filters = { status: input.status };
  const empty = input.status
    ? html`No mail with status ${input.status}. <a href="${path}">Show all mail</a>.`
    : 'No mail yet. Invitations, activation links and notices appear here as soon as they are queued.';
  return html`${filterForm({
      action: path,
      fields: [
        {
          kind: 'select',
          name: 'status',
          label: 'Status',
          value: input.status,
          error: input.error,
          options: [{ value: '', label: 'All statuses' }, ...EMAIL_STATUSES.map((s) => ({ value: s, label: s }))],
        },
      ],
    })}
    ${input.page
      ? html`${table({
          caption: 'Outbox, newest first',
          columns: [
            { header: 'To', cell: (e: EmailView) => e.to },
            { header: 'Subject', cell: (e: EmailView) => html`<a href="${path}/${e.id}">${e.subject}</a>` },
            { header: 'Status', cell: (e: EmailView) => statusBadge(e.status) },
            { header: 'Attempts', cell: (e: EmailView) => e.attempts, numeric: true },
            { header: 'Next attempt / last error', cell: (e: EmailView) => progress(e) },
          ],
          rows: input.page.items,
          empty,
        })}
        ${pager({ path, filters, newer: input.page.prevCursor ?? undefined, older: input.page.nextCursor, newerParam: 'before', olderParam: 'cursor' })}`
      : ''}`;
}

export function emailDetail(input: { base: string; csrf: string; email: EmailView; error?: string }): SafeHtml {
  const { email } = input;
  const retry = isRetryable(email)
    ? postForm({
        action: `${input.base}/email/${email.id}/retry`,
        csrf: input.csrf,
        submit: 'Retry delivery',
        body: html`<p>Puts the mail back in the queue with a fresh set of attempts. Fix the cause first (the address or the mail server) if the last error names one.</p>`,
      })
    : html`<p class="hint">Only a failed or abandoned mail can be retried.</p>`;
  return html`${formError(input.error)}
    <section class="panel" aria-labelledby="delivery">
      <h2 id="delivery">Delivery</h2>
      <dl class="summary">
        <dt>To</dt>
        <dd>${email.to}</dd>
        <dt>Subject</dt>
        <dd>${email.subject}</dd>
        <dt>Kind</dt>
        <dd><code>${email.template}</code></dd>
        <dt>Status</dt>
        <dd>${statusBadge(email.status)}</dd>
        <dt>Attempts</dt>
        <dd>${email.attempts}</dd>
        <dt>Queued</dt>
        <dd>${timeTag(new Date(email.createdAt))}</dd>
        <dt>Next attempt / last error</dt>
        <dd>${progress(email)}</dd>
        ${email.retryUntil ? html`<dt>Retried until</dt><dd>${timeTag(new Date(email.retryUntil))}</dd>` : ''}
      </dl>
      <p class="hint">The message itself is not shown: it may hold a one-time link meant only for the recipient.</p>
    </section>
    <section class="panel" aria-labelledby="retry-heading">
      <h2 id="retry-heading">Retry</h2>
      ${retry}
    </section>`;
}
