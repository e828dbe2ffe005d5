import type { AuditEventView, AuditPage } from '@gatehouse/audit';
import { type FieldErrors, type Option, type SafeHtml, filterForm, html, listUrl, pager, table } from '@gatehouse/views';
import { actorId, actorText, idCode, targetText, targetWord, utcSeconds } from './audit-labels.js';

/** The audit list's filters as typed (kept in the URL). */
export interface AuditFilters {
  actor?: string;
  action?: string;
  target?: string;
  period?: string;
  since?: string;
  until?: string;
}

/** The date presets, by their value in the URL. */
export const PERIODS: Record<string, { label: string; ms: number }> = {
  '1h': { label: 'Last hour', ms: 3_600_000 },
  '24h': { label: 'Last 24 hours', ms: 86_400_000 },
  '7d': { label: 'Last 7 days', ms: 7 * 86_400_000 },
};

function filterLink(path: string, filters: AuditFilters, name: keyof AuditFilters, value: string, label: SafeHtml | string): SafeHtml {
  return html`<a href="${listUrl(path, { ...filters, [name]: value })}" title="Only events with this ${name}">${label}</a>`;
}

function columns(path: string, filters: AuditFilters) {
  return [
    {
      header: 'Time',
      cell: (e: AuditEventView) =>
        html`<a href="${path}/${e.id}" title="What happened, in full"><time datetime="${e.occurredAt}" data-local>${utcSeconds(e.occurredAt)}</time></a>`,
    },
    {
      header: 'Actor',
      cell: (e: AuditEventView) => {
        const id = e.actor.userId ?? e.actor.clientId;
        const name = id ? filterLink(path, filters, 'actor', id, actorText(e)) : actorText(e);
        return html`${name} ${idCode(actorId(e))}`;
      },
    },
    { header: 'Action', cell: (e: AuditEventView) => filterLink(path, filters, 'action', e.action, html`<code>${e.action}</code>`) },
    {
      header: 'Target',
      cell: (e: AuditEventView) =>
        e.targetId
          ? html`${filterLink(path, filters, 'target', e.targetId, targetText(e))}
              <span class="hint">${targetWord(e)}</span> ${idCode(e.targetId)}`
          : targetWord(e),
    },
    { header: 'Source address', cell: (e: AuditEventView) => (e.sourceAddress ? html`<code>${e.sourceAddress}</code>` : '—') },
  ];
}

/** Every action of the tenant, each family first as a whole ("client.* — every client action"). */
export function actionOptions(actions: readonly string[], current: string | undefined): Option[] {
  const families = [...new Set(actions.map((action) => action.split('.')[0]!))];
  const options: Option[] = [{ value: '', label: 'Any action' }];
  for (const family of families) {
    options.push({ value: `${family}.*`, label: `${family}.* (every ${family.replace(/_/g, ' ')} action)` });
    for (const action of actions.filter((a) => a.split('.')[0] === family)) options.push({ value: action, label: action });
  }
  if (current && !options.some((option) => option.value === current)) options.push({ value: current, label: current });
  return options;
}

function filtersForm(path: string, filters: AuditFilters, errors: FieldErrors, actions: readonly string[]): SafeHtml {
  const time = 'UTC, e.g. 2026-11-01 14:00';
  const periods: Option[] = [
    { value: '', label: 'Any time, or From and Before' },
    ...Object.entries(PERIODS).map(([value, period]) => ({ value, label: period.label })),
  ];
  return filterForm({
    action: path,
    fields: [
      { kind: 'text', name: 'actor', label: 'Actor', hint: 'Name, username or id', value: filters.actor, error: errors.actor },
      { kind: 'select', name: 'action', label: 'Action', options: actionOptions(actions, filters.action), value: filters.action, error: errors.action },
      { kind: 'text', name: 'target', label: 'Target', hint: 'Name or id of a user, client, API or section', value: filters.target, error: errors.target },
      { kind: 'select', name: 'period', label: 'Period', options: periods, value: filters.period, error: errors.period },
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
  actions: readonly string[];
}): SafeHtml {
  const { path, filters, page } = input;
  const filtered = Object.values(filters).some(Boolean);
  const empty = filtered
    ? html`No events match these filters. <a href="${path}">Clear the filters</a> to see every event.`
    : 'Nothing has been recorded in this tenant yet: every change made here or through the API appears in this log.';
  return html`${filtersForm(path, filters, input.errors, input.actions)}
    ${page
      ? html`${table({ caption: 'Audit events, newest first', columns: columns(path, filters), rows: page.items, empty })}
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
