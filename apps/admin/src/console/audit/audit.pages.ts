import type { AuditEventView, AuditPage } from '@gatehouse/audit';
import { type FieldErrors, type SafeHtml, filterForm, html, listUrl, pager, table } from '@gatehouse/views';

/** The audit list's filters as typed (kept in the URL). */
export interface AuditFilters {
  actor?: string;
  action?: string;
  target?: string;
  since?: string;
  until?: string;
}

/** `2026-11-23 15:20:01 UTC`: audit times to the second. */
export function utcSeconds(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

/** The person (or client, or the system) who made the change, in words. */
export function actorText(event: AuditEventView, names: ReadonlyMap<string, string>): string {
  if (event.actor.type === 'system') return 'System';
  const person = event.actor.userId ? (names.get(event.actor.userId) ?? `user ${event.actor.userId}`) : null;
  const client = event.actor.clientId ? `client ${event.actor.clientId}` : null;
  return person && client ? `${person} (through ${client})` : (person ?? client ?? event.actor.type);
}

function actorId(event: AuditEventView): string | null {
  return event.actor.userId ?? event.actor.clientId;
}

function filterLink(path: string, filters: AuditFilters, name: keyof AuditFilters, value: string, label: SafeHtml | string): SafeHtml {
  return html`<a href="${listUrl(path, { ...filters, [name]: value })}" title="Only events with this ${name}">${label}</a>`;
}

function columns(path: string, filters: AuditFilters, names: ReadonlyMap<string, string>) {
  return [
    {
      header: 'Time',
      cell: (e: AuditEventView) => html`<time datetime="${e.occurredAt}" data-local>${utcSeconds(e.occurredAt)}</time>`,
    },
    {
      header: 'Actor',
      cell: (e: AuditEventView) => {
        const id = actorId(e);
        return id ? filterLink(path, filters, 'actor', id, actorText(e, names)) : actorText(e, names);
      },
    },
    { header: 'Action', cell: (e: AuditEventView) => filterLink(path, filters, 'action', e.action, html`<code>${e.action}</code>`) },
    {
      header: 'Target',
      cell: (e: AuditEventView) =>
        e.targetId
          ? html`${e.targetType} ${filterLink(path, filters, 'target', e.targetId, html`<code class="id">${e.targetId}</code>`)}`
          : e.targetType,
    },
    { header: 'Source address', cell: (e: AuditEventView) => (e.sourceAddress ? html`<code>${e.sourceAddress}</code>` : '—') },
  ];
}

function filtersForm(path: string, filters: AuditFilters, errors: FieldErrors): SafeHtml {
  const time = 'UTC, e.g. 2026-11-01 14:00';
  return filterForm({
    action: path,
    fields: [
      { kind: 'text', name: 'actor', label: 'Actor', hint: 'User id or client id', value: filters.actor, error: errors.actor },
      { kind: 'text', name: 'action', label: 'Action', hint: 'Exact, or a prefix like client.*', value: filters.action, error: errors.action },
      { kind: 'text', name: 'target', label: 'Target', hint: 'User, client or API id', value: filters.target, error: errors.target },
      { kind: 'text', name: 'since', label: 'From', hint: time, value: filters.since, error: errors.since },
      { kind: 'text', name: 'until', label: 'Before', hint: time, value: filters.until, error: errors.until },
    ],
  });
}

export function auditPage(input: {
  path: string;
  filters: AuditFilters;
  errors: FieldErrors;
  page: AuditPage | null;
  names: ReadonlyMap<string, string>;
}): SafeHtml {
  const { path, filters, page } = input;
  const filtered = Object.values(filters).some(Boolean);
  const empty = filtered
    ? html`No events match these filters. <a href="${path}">Clear the filters</a> to see every event.`
    : 'Nothing has been recorded in this tenant yet: every change made here or through the API appears in this log.';
  return html`${filtersForm(path, filters, input.errors)}
    ${page
      ? html`${table({ caption: 'Audit events, newest first', columns: columns(path, filters, input.names), rows: page.items, empty })}
        ${pager({
          path,
          filters: { ...filters },
          newer: page.prevCursor ?? undefined,
          older: page.nextCursor,
          newerParam: 'before',
          olderParam: 'cursor',
        })}`
      : html`<p class="empty">Correct the filters above to see the events.</p>`}`;
}
