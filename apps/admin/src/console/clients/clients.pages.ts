import type { ApiView } from '@gatehouse/apis';
import type { ClientState, ClientSummary, ClientView } from '@gatehouse/clients';
import {
  type FieldErrors,
  type SafeHtml,
  badge,
  filterForm,
  listUrl,
  html,
  inputField,
  pager,
  postForm,
  table,
  timeTag,
} from '@gatehouse/views';

export const STATE_LABELS: Record<ClientState, string> = {
  awaiting_scopes: 'awaiting scopes',
  active: 'active',
  disabled: 'disabled',
};

export function stateBadge(state: ClientState): SafeHtml {
  return badge(STATE_LABELS[state], state === 'active' ? 'good' : state === 'disabled' ? 'bad' : 'warn');
}

/** An identifier in monospace with a Copy button (added by the console's script). */
export function copyable(value: string, what: string): SafeHtml {
  return html`<code class="mono" data-copy="${what}">${value}</code>`;
}

/** The list's filters as the URL carries them. */
export interface ClientListQuery {
  q?: string;
  state?: string;
  api?: string;
  secrets?: string;
  /** `expired`: clients whose last handover expired unrevealed (the Overview's queue). */
  handovers?: string;
  /** `name`, `-name`, `state`, `-state`; empty: newest first. */
  sort?: string;
  before?: string;
  after?: string;
}

function scopeCell(scopes: readonly string[]): SafeHtml | string {
  if (!scopes.length) return 'none';
  const shown = scopes.slice(0, 3);
  return html`${shown.map((s) => html`<code class="scope">${s}</code> `)}${scopes.length > 3 ? ` and ${scopes.length - 3} more` : ''}`;
}

function expiryCell(at: Date | null): SafeHtml | string {
  if (!at) return 'no secret';
  const soon = at.getTime() < Date.now() + 30 * 86_400_000;
  return html`${timeTag(at)}${soon ? html` ${badge(at.getTime() < Date.now() ? 'expired' : 'expires soon', 'warn')}` : ''}`;
}

export function clientList(input: {
  base: string;
  query: ClientListQuery;
  apis: readonly ApiView[];
  clients: readonly ClientSummary[];
  newer?: string;
  older?: string;
}): SafeHtml {
  const { base, query } = input;
  const path = `${base}/clients`;
  const filters = { q: query.q, state: query.state, api: query.api, secrets: query.secrets, handovers: query.handovers, sort: query.sort };
  const filtered = Boolean(query.q || query.state || query.api || query.secrets || query.handovers);
  return html`${query.handovers === 'expired'
    ? html`<p class="notice">
        Showing clients whose last handover expired without being revealed: open one and press Resend, or send
        credentials to another address. <a href="${path}">Show all clients</a>
      </p>`
    : ''}
  ${filterForm({
    action: path,
    submit: 'Search',
    keep: { sort: query.sort, handovers: query.handovers },
    fields: [
      { kind: 'text', name: 'q', id: 'filter-q', label: 'Name, contact or id', value: query.q },
      {
        kind: 'select',
        name: 'state',
        id: 'filter-state',
        label: 'State',
        value: query.state,
        options: [
          { value: '', label: 'Any state' },
          ...Object.entries(STATE_LABELS).map(([value, label]) => ({ value, label })),
        ],
      },
      {
        kind: 'select',
        name: 'api',
        id: 'filter-api',
        label: 'API',
        value: query.api,
        options: [
          { value: '', label: 'Any API' },
          ...input.apis.map((api) => ({ value: api.id, label: api.displayName })),
        ],
      },
      {
        kind: 'select',
        name: 'secrets',
        id: 'filter-secrets',
        label: 'Secrets',
        value: query.secrets,
        options: [
          { value: '', label: 'Any' },
          { value: 'expiring', label: 'Expiring within 30 days' },
        ],
      },
    ],
  })}
  ${table({
    caption: query.sort ? 'API clients' : 'API clients, newest first',
    sorting: { current: query.sort ?? '', url: (sort) => listUrl(path, { ...filters, sort }) },
    columns: [
      {
        header: 'Name',
        sort: 'name',
        cell: (c: ClientSummary) => html`<a href="${base}/clients/${c.clientId}">${c.displayName}</a>`,
      },
      { header: 'Client id', cell: (c) => copyable(c.clientId, `client id of ${c.displayName}`) },
      { header: 'State', sort: 'state', cell: (c) => stateBadge(c.state) },
      { header: 'Scopes', cell: (c) => scopeCell(c.scopes) },
      { header: 'Secret expiring soonest', cell: (c) => expiryCell(c.soonestSecretExpiry) },
      { header: 'Contact', cell: (c) => c.contactEmail ?? (c.ownerUserId ? 'staff member (operator client)' : '—') },
    ],
    rows: input.clients,
    empty: filtered
      ? 'No client matches these filters. Clear them to see every client.'
      : 'No clients yet. Create one, or approve an access request for API access.',
  })}
  ${pager({ path, filters, newer: input.newer, older: input.older, labels: query.sort ? { newer: 'Previous', older: 'Next' } : undefined })}`;
}

export interface CreateClientForm {
  displayName?: string;
  contactEmail?: string;
}

export function createClientForm(input: {
  base: string;
  csrf: string;
  values: CreateClientForm;
  errors: FieldErrors;
}): SafeHtml {
  const { values, errors } = input;
  return html`<p>
      A new client waits for scopes until the IT department assigns them; it gets credentials once it is active. The
      technical contact receives expiry warnings and, by default, the credentials.
    </p>
    ${postForm({
      action: `${input.base}/clients/new`,
      csrf: input.csrf,
      submit: 'Create the client',
      aside: html`<a href="${input.base}/clients">Cancel</a>`,
      body: html`${inputField({ name: 'displayName', label: 'Name', hint: 'What the system is, e.g. "Orders sync".', value: values.displayName, required: true, error: errors.displayName, maxlength: 200 })}
      ${inputField({ name: 'contactEmail', label: 'Technical contact email (optional)', type: 'email', value: values.contactEmail, error: errors.contactEmail, verbatim: true, autocomplete: 'off' })}`,
    })}`;
}

/** Why the client is in its state, in words for the person reading it. */
export function stateReason(client: ClientView, canAssign: boolean): string {
  switch (client.state) {
    case 'awaiting_scopes':
      return canAssign
        ? 'assign at least one scope below, then it can get tokens.'
        : 'the IT department has been told and assigns its scopes.';
    case 'active':
      return 'it gets tokens with its secrets or certificates.';
    case 'disabled':
      return 'its token requests fail until it is enabled again.';
  }
}

export function clientSummary(input: {
  client: ClientView;
  tenantName: string;
  tenantId: string;
  tokenEndpoint: string;
  ownerName: string | null;
  canAssign: boolean;
  /** The access request whose approval created the client. */
  origin?: { href: string; requester: string; organisation: string } | null;
  /** The partner organisation, linked for those who may open it. */
  organisation?: SafeHtml | string;
}): SafeHtml {
  const { client } = input;
  return html`<section class="panel" aria-labelledby="summary-heading">
    <h2 id="summary-heading">Summary</h2>
    <dl class="summary">
      <dt>Client id</dt>
      <dd>${copyable(client.clientId, 'client id')}</dd>
      <dt>Tenant</dt>
      <dd>${input.tenantName} (<code>${input.tenantId}</code>)</dd>
      <dt>Token endpoint</dt>
      <dd>${copyable(input.tokenEndpoint, 'token endpoint URL')}</dd>
      <dt>State</dt>
      <dd>${stateBadge(client.state)}: ${stateReason(client, input.canAssign)}</dd>
      <dt>Contact</dt>
      <dd>${client.contactEmail ?? 'none: name a recipient when sending credentials'}</dd>
      <dt>Organisation</dt>
      <dd>${input.organisation ?? '—'}</dd>
      ${
        input.ownerName
          ? html`<dt>Owner</dt>
              <dd>
                ${input.ownerName} — an operator client: only its owner or an Administrator manages its credentials
              </dd>`
          : ''
      }
      <dt>Created</dt>
      <dd>
        ${timeTag(new Date(client.createdAt))}${input.origin
          ? html`, by approving <a href="${input.origin.href}" id="origin-request">the access request of ${input.origin.requester} (${input.origin.organisation})</a>`
          : ''}
      </dd>
    </dl>
  </section>`;
}
