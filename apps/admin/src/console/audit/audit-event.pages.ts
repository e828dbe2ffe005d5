import type { AuditEventView } from '@gatehouse/audit';
import { type SafeHtml, html, table } from '@gatehouse/views';
import { type AuditChanges, type FieldChange, changesOf, saysWhatChanged } from './audit-changes.js';
import { actorText, idCode, targetHref, targetText, targetWord, utcSeconds } from './audit-labels.js';

/** A detail value as text: strings as they are, lists joined, anything else as JSON. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value || '(empty)';
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.length ? value.join(', ') : '(none)';
  return JSON.stringify(value);
}

function who(event: AuditEventView): SafeHtml {
  const { userId, clientId, username } = event.actor;
  return html`<span class="value">${actorText(event)}</span>
    ${username ? html`<br />username ${idCode(username)}` : ''} ${userId ? html`<br />user id ${idCode(userId)}` : ''}
    ${clientId ? html`<br />${event.actor.type === 'user' ? 'through client' : 'client id'} ${idCode(clientId)}` : ''}`;
}

function target(base: string, event: AuditEventView): SafeHtml {
  const href = targetHref(base, event);
  const name = html`<span class="value">${href ? html`<a href="${href}">${targetText(event)}</a>` : targetText(event)}</span>`;
  return html`${name} <span class="hint">${targetWord(event)}</span>${event.targetId ? html`<br />id ${idCode(event.targetId)}` : ''}`;
}

function changedFields(fields: FieldChange[]): SafeHtml {
  return table({
    caption: 'Fields changed, old and new values',
    columns: [
      { header: 'Field', cell: (c: FieldChange) => c.field },
      { header: 'Before', cell: (c) => html`<span class="value">${valueText(c.before)}</span>` },
      { header: 'After', cell: (c) => html`<span class="value">${valueText(c.after)}</span>` },
    ],
    rows: fields,
    empty: '',
  });
}

function whatChanged(changes: AuditChanges): SafeHtml {
  if (!saysWhatChanged(changes)) return html`<p>This event records an act, not a change of values: its details are below.</p>`;
  const list = (items: string[]) => html`<ul class="values">${items.map((item) => html`<li><code class="id">${item}</code></li>`)}</ul>`;
  return html`${changes.fields.length ? changedFields(changes.fields) : ''}
    ${changes.added.length ? html`<h3>Added</h3>${list(changes.added)}` : ''}
    ${changes.removed.length ? html`<h3>Removed</h3>${list(changes.removed)}` : ''}`;
}

function details(event: AuditEventView): SafeHtml {
  const entries = Object.entries(event.details);
  if (!entries.length) return html`<p>No details were recorded.</p>`;
  return html`<dl class="summary">${entries.map(([key, value]) => html`<dt>${key}</dt><dd class="value">${valueText(value)}</dd>`)}</dl>`;
}

/** One event in full: who, when, what, to what, from where; what changed; every detail it keeps. */
export function auditEventPage(base: string, event: AuditEventView): SafeHtml {
  return html`<section class="panel" aria-labelledby="event-heading">
      <h2 id="event-heading">What happened</h2>
      <dl class="summary">
        <dt>When</dt><dd><time datetime="${event.occurredAt}" data-local>${utcSeconds(event.occurredAt)}</time></dd>
        <dt>Who</dt><dd>${who(event)}</dd>
        <dt>Action</dt><dd><a href="${base}/audit?action=${encodeURIComponent(event.action)}"><code>${event.action}</code></a></dd>
        <dt>Target</dt><dd>${target(base, event)}</dd>
        <dt>From</dt><dd>${event.sourceAddress ? html`<code>${event.sourceAddress}</code>` : 'inside Gatehouse'}</dd>
        ${event.requestId ? html`<dt>Request</dt><dd>${idCode(event.requestId)}</dd>` : ''}
        <dt>Event id</dt><dd>${idCode(event.id)}</dd>
      </dl>
    </section>
    <section class="panel" aria-labelledby="changes-heading">
      <h2 id="changes-heading">What changed</h2>
      ${whatChanged(changesOf(event.details))}
    </section>
    <section class="panel" aria-labelledby="details-heading">
      <h2 id="details-heading">Details</h2>
      ${details(event)}
      <p class="hint">Names are as they were when this happened. Secrets are never recorded.</p>
    </section>`;
}
