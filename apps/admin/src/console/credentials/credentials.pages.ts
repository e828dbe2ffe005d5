import type { CredentialKindName, CredentialReportEntry, CredentialState } from '@gatehouse/clients';
import { type SafeHtml, badge, filterForm, html, pager, table, timeTag, utc } from '@gatehouse/views';

export const EXPIRING_DAYS = 30;
export const DEFAULT_UNUSED_DAYS = '90';

export const KIND_LABELS: Record<CredentialKindName, string> = {
  secret: 'secret',
  certificate: 'certificate',
  federated: 'federated credential',
};

/** The page's filters as the URL carries them. */
export interface CredentialListQuery {
  /** `expiring`, `never-used`, `unused` (for `days`), `outside-policy`, `disabled`, or nothing: every credential. */
  show?: string;
  days?: string;
  kind?: string;
  after?: string;
}

function stateBadge(state: CredentialState): SafeHtml {
  return badge(state, state === 'active' ? 'good' : state === 'revoked' ? 'bad' : 'warn');
}

/** The state, and for one disabled as stale since when. */
function stateCell(entry: CredentialReportEntry): SafeHtml {
  if (entry.state !== 'disabled' || !entry.disabledAt) return stateBadge(entry.state);
  const at = new Date(entry.disabledAt);
  return html`${stateBadge(entry.state)}<br /><span class="hint">as stale on <time datetime="${at.toISOString()}">${utc(at)}</time></span>`;
}

/** What tells the credential apart: the secret's hint, the certificate's thumbprint, the issuer and subject. */
function identifying(entry: CredentialReportEntry): SafeHtml {
  if (entry.kind === 'secret') return html`hint <code>${entry.hint ?? ''}…</code>`;
  if (entry.kind === 'certificate') return html`<code class="id">${entry.thumbprint ?? ''}</code>`;
  return html`<span class="name">${entry.issuer ?? ''}</span><br /><code class="id">${entry.subject ?? ''}</code>`;
}

/** When it was last used and from where, or that it never was. */
export function lastUseCell(at: string | null, from: string | null): SafeHtml | string {
  if (!at) return 'never';
  return html`${timeTag(new Date(at))}${from ? html`<br />from <code>${from}</code>` : ''}`;
}

function expiryCell(entry: CredentialReportEntry): SafeHtml | string {
  if (!entry.expiresAt) return 'does not expire';
  const at = new Date(entry.expiresAt);
  const soon = entry.state === 'active' && at.getTime() < Date.now() + EXPIRING_DAYS * 86_400_000;
  return html`${timeTag(at)}${soon ? html` ${badge('expires soon', 'warn')}` : ''}`;
}

function emptyText(query: CredentialListQuery): string {
  switch (query.show) {
    case 'expiring':
      return `No credential expires within ${EXPIRING_DAYS} days.`;
    case 'never-used':
      return 'Every credential has been used at least once.';
    case 'unused':
      return `Every credential was used within the last ${query.days} days.`;
    case 'outside-policy':
      return 'No live credential is outside the credential policy.';
    case 'disabled':
      return 'No credential is disabled as stale.';
    default:
      return 'No credentials yet. Open a client to issue a secret, add a certificate or a federated credential.';
  }
}

export function credentialList(input: {
  base: string;
  query: CredentialListQuery;
  entries: readonly CredentialReportEntry[];
  next: string | null;
  error?: string;
}): SafeHtml {
  const { base, query } = input;
  const path = `${base}/credentials`;
  const filters = { show: query.show, days: query.show === 'unused' ? query.days : undefined, kind: query.kind };
  return html`${filterForm({
      action: path,
      submit: 'Show',
      fields: [
        {
          kind: 'select',
          name: 'show',
          id: 'filter-show',
          label: 'Show',
          value: query.show,
          options: [
            { value: '', label: 'Every credential' },
            { value: 'expiring', label: `Expiring within ${EXPIRING_DAYS} days` },
            { value: 'never-used', label: 'Never used' },
            { value: 'unused', label: 'Unused for the days below' },
            { value: 'outside-policy', label: 'Outside the credential policy' },
            { value: 'disabled', label: 'Disabled as stale' },
          ],
        },
        {
          kind: 'text',
          name: 'days',
          id: 'filter-days',
          label: 'Unused for (days)',
          value: query.days ?? DEFAULT_UNUSED_DAYS,
          error: input.error,
        },
        {
          kind: 'select',
          name: 'kind',
          id: 'filter-kind',
          label: 'Kind',
          value: query.kind,
          options: [{ value: '', label: 'Any kind' }, ...Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }))],
        },
      ],
    })}
    ${input.error
      ? ''
      : table({
          caption: 'Credentials, oldest first',
          columns: [
            {
              header: 'Client',
              cell: (e: CredentialReportEntry) =>
                html`<a class="name" href="${base}/clients/${e.clientId}">${e.clientName}</a>`,
            },
            { header: 'Kind', cell: (e) => html`${KIND_LABELS[e.kind]}${e.displayName ? html`<br /><span class="name">${e.displayName}</span>` : ''}` },
            { header: 'Identifies by', cell: identifying },
            { header: 'Created', cell: (e) => timeTag(new Date(e.createdAt)) },
            { header: 'Expires', cell: expiryCell },
            { header: 'Last used', cell: (e) => lastUseCell(e.lastUsedAt, e.lastUsedFrom) },
            { header: 'State', cell: stateCell },
          ],
          rows: input.entries,
          empty: emptyText(query),
        })}
    ${pager({
      path,
      filters,
      newer: query.after ? '' : undefined,
      older: input.next,
      labels: { newer: 'First page', older: 'Next' },
    })}
    <p class="hint">
      Last use is written by each identity replica at most a minute late; a replica stopped without warning loses at most
      its last minute.
    </p>`;
}
