import type { Page } from '@gatehouse/database';
import { KNOWN_EVENTS, type WebhookDeliveryView, type WebhookState, type WebhookView, type WebhookWithSecret } from '@gatehouse/events';
import { type BadgeTone, type FieldErrors, type SafeHtml, badge, formError, html, inputField, pager, postForm, table, timeTag, when } from '@gatehouse/views';

const STATE_TONES: Record<WebhookState, BadgeTone> = { active: 'good', failing: 'warn', disabled: 'bad' };
const DELIVERY_TONES: Record<WebhookDeliveryView['state'], BadgeTone> = { pending: 'neutral', delivered: 'good', failed: 'bad' };

export interface WebhookForm {
  url?: string;
  events?: string;
  description?: string;
}

const stateBadge = (state: WebhookState) => badge(state, STATE_TONES[state]);

export function webhookList(input: { base: string; page: Page<WebhookView> }): SafeHtml {
  const path = `${input.base}/webhooks`;
  return html`${table({
      caption: 'Webhooks, newest first',
      columns: [
        { header: 'Endpoint', cell: (w: WebhookView) => html`<a href="${path}/${w.id}">${w.url}</a>` },
        { header: 'Events', cell: (w: WebhookView) => html`<code>${w.events.join(', ')}</code>` },
        { header: 'Description', cell: (w: WebhookView) => w.description ?? '—' },
        { header: 'State', cell: (w: WebhookView) => stateBadge(w.state) },
      ],
      rows: input.page.items,
      empty: html`No webhooks yet. Create one to send credential events to a ticket system, a secrets vault or your own service.`,
    })}
    ${pager({ path, filters: {}, older: input.page.nextCursor, olderParam: 'cursor' })}`;
}

/** The events a filter may name, for the form's help. */
function eventHelp(): SafeHtml {
  return html`<details class="alternative">
    <summary>Events you can name (${KNOWN_EVENTS.length})</summary>
    <p class="hint">Exact names, a prefix such as <code>client.secret.*</code>, or <code>*</code> for every event.</p>
    <ul class="events">${KNOWN_EVENTS.map((event) => html`<li><code>${event}</code></li>`)}</ul>
  </details>`;
}

export function newWebhookForm(input: { action: string; back: string; csrf: string; values: WebhookForm; errors: FieldErrors; error?: string }): SafeHtml {
  const { values, errors } = input;
  return html`${formError(input.error)}
    <p>Gatehouse signs each delivery (Standard Webhooks) and retries for 3 days. Creating a webhook asks for a fresh code from your authenticator app.</p>
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Create the webhook',
      aside: html`<a href="${input.back}">Cancel</a>`,
      body: html`${inputField({ name: 'url', label: 'Endpoint URL', hint: 'https only, reachable from Gatehouse, without a user name or password.', value: values.url, error: errors.url, maxlength: 2000, verbatim: true })}
        ${inputField({ name: 'events', label: 'Events', hint: 'Separated by commas, e.g. client.secret.*, client.credential.expiring', value: values.events, error: errors.events, maxlength: 4000, verbatim: true })}
        ${eventHelp()}
        ${inputField({ name: 'description', label: 'Description (optional)', hint: 'What receives it, e.g. "Vault sync".', value: values.description, error: errors.description, maxlength: 500 })}`,
    })}`;
}

/** The one page that shows a webhook's signing secret (after creation or a rotation). */
export function webhookSecretPage(input: { back: string; webhook: WebhookWithSecret; rotated: boolean }): SafeHtml {
  const { webhook } = input;
  const overlap = input.rotated && webhook.previousSecretValidUntil
    ? html`<p>The previous secret keeps signing too until ${when(new Date(webhook.previousSecretValidUntil))}: each delivery carries both signatures, so the receiver can switch at any time before then.</p>`
    : '';
  return html`<p class="notice" role="status">
      This page shows the signing secret once. Leaving or reloading it loses the secret: copy it into the receiver's configuration now.
    </p>
    <dl class="credentials">
      <dt>Endpoint</dt>
      <dd><code>${webhook.url}</code></dd>
      <dt>Signing secret</dt>
      <dd><code class="secret" id="webhook-secret" data-copy="signing secret">${webhook.secret}</code></dd>
    </dl>
    ${overlap}
    <p>Verify each delivery with a Standard Webhooks library (<code>standardwebhooks</code> for Node.js and Python) and this secret; the <code>webhook-id</code> header stays the same on every retry of an event.</p>
    <p><a class="button" href="${input.back}">I have stored it: back to the webhook</a></p>`;
}

function nextTry(d: WebhookDeliveryView): SafeHtml | string {
  if (d.state !== 'pending' || !d.nextAttemptAt) return '—';
  const at = new Date(d.nextAttemptAt);
  return at.getTime() > Date.now() ? timeTag(at) : 'due now';
}

function deliveryLog(input: { path: string; csrf: string; page: Page<WebhookDeliveryView> }): SafeHtml {
  const redeliver = (d: WebhookDeliveryView) =>
    d.state === 'pending'
      ? ''
      : postForm({ action: `${input.path}/deliveries/${d.id}/redeliver`, csrf: input.csrf, submit: 'Redeliver', button: 'secondary', body: html`` });
  return html`${table({
      caption: 'Deliveries, newest first',
      columns: [
        { header: 'Event', cell: (d: WebhookDeliveryView) => html`<code>${d.event}</code><br /><span class="hint">id <code>${d.eventId}</code></span>` },
        { header: 'State', cell: (d: WebhookDeliveryView) => badge(d.state, DELIVERY_TONES[d.state]) },
        { header: 'Attempts', cell: (d: WebhookDeliveryView) => d.attempts, numeric: true },
        { header: 'Last answer', cell: (d: WebhookDeliveryView) => d.lastAttemptAt ? html`${d.lastError ?? `HTTP ${d.lastStatusCode}`}<br />${timeTag(new Date(d.lastAttemptAt))}` : 'not tried yet' },
        { header: 'Next try', cell: nextTry },
        { header: 'Action', cell: redeliver },
      ],
      rows: input.page.items,
      empty: 'No deliveries yet. Send a test event, or wait for the next event the filter takes.',
    })}
    ${pager({ path: input.path, filters: {}, older: input.page.nextCursor, olderParam: 'cursor' })}`;
}

export function webhookDetail(input: { base: string; csrf: string; webhook: WebhookView; deliveries: Page<WebhookDeliveryView> }): SafeHtml {
  const { webhook } = input;
  const path = `${input.base}/webhooks/${webhook.id}`;
  const enable = webhook.state === 'active' ? '' : postForm({ action: `${path}/enable`, csrf: input.csrf, submit: 'Enable deliveries', button: 'secondary', body: html`` });
  return html`<section class="panel" aria-labelledby="summary">
      <h2 id="summary">Summary</h2>
      <dl class="summary">
        <dt>Endpoint</dt><dd><code data-copy="endpoint">${webhook.url}</code></dd>
        <dt>Events</dt><dd><code>${webhook.events.join(', ')}</code></dd>
        <dt>Description</dt><dd>${webhook.description ?? '—'}</dd>
        <dt>State</dt><dd>${stateBadge(webhook.state)}${webhook.stateReason ? html` <span class="hint">${webhook.stateReason}</span>` : ''}</dd>
        <dt>Created</dt><dd>${timeTag(new Date(webhook.createdAt))}</dd>
        ${webhook.previousSecretValidUntil ? html`<dt>Previous secret</dt><dd>still signs until ${when(new Date(webhook.previousSecretValidUntil))}</dd>` : ''}
      </dl>
      ${enable}
    </section>
    <section class="panel" aria-labelledby="actions-heading">
      <h2 id="actions-heading">Actions</h2>
      ${postForm({ action: `${path}/test`, csrf: input.csrf, submit: 'Send a test event', button: 'secondary', body: html`<p>Sends a <code>webhook.tested</code> event to this endpoint only.</p>` })}
      ${postForm({ action: `${path}/rotate-secret`, csrf: input.csrf, submit: 'Rotate the signing secret', button: 'secondary', body: html`<p>A new secret, shown once; the current one keeps signing for 24 hours beside it. Asks for a fresh code.</p>` })}
      <p><a class="button danger" href="${path}/delete">Delete the webhook</a></p>
    </section>
    <section class="panel" aria-labelledby="log-heading">
      <h2 id="log-heading">Delivery log</h2>
      ${deliveryLog({ path, csrf: input.csrf, page: input.deliveries })}
    </section>`;
}
