import type { ApiView } from '@gatehouse/apis';
import type { AuditEventView } from '@gatehouse/audit';
import type { CertificateView, ClientView, SecretView } from '@gatehouse/clients';
import type { HandoverView } from '@gatehouse/handovers';
import { type SafeHtml, badge, checkboxGroup, html, postForm, table, expiryTag, timeTag } from '@gatehouse/views';

/** What the signed-in person may do on this client (their permissions and the operator-client rule). */
export interface ClientAbilities {
  assignScopes: boolean;
  /** Network restriction and quota: Scopes.Assign, and an operator client's owner or an Administrator. */
  setLimits: boolean;
  manageCredentials: boolean;
  manageState: boolean;
  readHistory: boolean;
}

const scopeString = (api: ApiView, value: string) => `${api.identifier}/${value}`;

/** Scopes grouped by API: checkboxes for those who assign scopes, a list for everybody else. */
export function scopesSection(input: {
  base: string;
  csrf: string;
  client: ClientView;
  apis: readonly ApiView[];
  granted: readonly string[];
  can: ClientAbilities;
  error?: string;
}): SafeHtml {
  const { client, apis, granted } = input;
  const withScopes = apis.filter((api) => api.scopes.length > 0);
  const body = !withScopes.length
    ? input.can.assignScopes
      ? html`<p class="empty">No API defines scopes yet. <a href="${input.base}/apis">Add an API and its scopes under APIs &amp; scopes</a>, then assign them here.</p>`
      : html`<p class="empty">No API defines scopes yet. The IT department adds them under <a href="${input.base}/apis">APIs &amp; scopes</a>.</p>`
    : input.can.assignScopes
      ? postForm({
          action: `${input.base}/clients/${client.clientId}/scopes`,
          csrf: input.csrf,
          submit: 'Save scopes',
          button: 'secondary',
          body: html`${input.error ? html`<p class="field-error" id="scopes-error">${input.error}</p>` : ''}
          ${withScopes.map((api) =>
            checkboxGroup({
              name: 'scopes',
              id: `api-${api.id}`,
              label: `${api.displayName} (${api.identifier})`,
              options: api.scopes.map((s) => ({
                value: scopeString(api, s.value),
                label: s.value,
                hint: s.description ? `— ${s.description}` : undefined,
              })),
              values: granted,
            }),
          )}`,
        })
      : readOnlyScopes(withScopes, granted);
  return html`<section class="panel" aria-labelledby="scopes-heading">
    <h2 id="scopes-heading">Scopes</h2>
    <p class="hint">What tokens of this client may carry. A change acts on the next token request.</p>
    ${body}
  </section>`;
}

function readOnlyScopes(apis: readonly ApiView[], granted: readonly string[]): SafeHtml {
  const groups = apis
    .map((api) => ({ api, values: api.scopes.filter((s) => granted.includes(scopeString(api, s.value))) }))
    .filter((group) => group.values.length > 0);
  if (!groups.length) return html`<p class="empty">No scopes granted yet. The IT department assigns them.</p>`;
  return html`<ul class="scope-groups">
    ${groups.map((g) => html`<li><strong>${g.api.displayName}</strong>: ${g.values.map((s) => html`<code class="scope">${s.value}</code> `)}</li>`)}
  </ul>`;
}

function secretStatus(secret: SecretView): SafeHtml {
  if (secret.revokedAt) return badge('revoked', 'neutral');
  return new Date(secret.expiresAt).getTime() <= Date.now() ? badge('expired', 'bad') : badge('active', 'good');
}

function secretsTable(base: string, clientId: string, secrets: readonly SecretView[], can: ClientAbilities): SafeHtml {
  return table({
    caption: 'Secrets',
    showCaption: true,
    columns: [
      { header: 'Description', cell: (s: SecretView) => s.displayName || 'no description' },
      { header: 'Hint', cell: (s) => html`<code>${s.hint}…</code>` },
      { header: 'Created', cell: (s) => timeTag(new Date(s.createdAt)) },
      { header: 'Expires', cell: (s) => expiryTag(new Date(s.expiresAt)) },
      { header: 'Status', cell: (s) => secretStatus(s) },
      {
        header: 'Action',
        cell: (s) =>
          can.manageCredentials && !s.revokedAt
            ? html`<a href="${base}/clients/${clientId}/secrets/${s.keyId}/revoke"
                >Revoke<span class="visually-hidden"> secret ${s.hint}…</span></a
              >`
            : '—',
      },
    ],
    rows: secrets,
    empty: 'No secrets. Send credentials by handover link, or create a secret.',
  });
}

function certificatesTable(
  base: string,
  clientId: string,
  certificates: readonly CertificateView[],
  can: ClientAbilities,
): SafeHtml {
  return table({
    caption: 'Certificates',
    showCaption: true,
    columns: [
      { header: 'Description', cell: (c: CertificateView) => c.displayName || 'no description' },
      { header: 'Thumbprint', cell: (c) => html`<code class="thumbprint">${c.thumbprint}</code>` },
      { header: 'Subject', cell: (c) => c.subject },
      { header: 'Expires', cell: (c) => expiryTag(new Date(c.notAfter)) },
      {
        header: 'Action',
        cell: (c) =>
          can.manageCredentials
            ? html`<a href="${base}/clients/${clientId}/certificates/${c.keyId}/remove"
                >Remove<span class="visually-hidden"> certificate ${c.thumbprint}</span></a
              >`
            : '—',
      },
    ],
    rows: certificates,
    empty: 'No certificates. A client may sign its token requests with one instead of using a secret.',
  });
}

export function credentialsSection(input: {
  base: string;
  client: ClientView;
  secrets: readonly SecretView[];
  certificates: readonly CertificateView[];
  can: ClientAbilities;
}): SafeHtml {
  const { base, client, can } = input;
  const path = `${base}/clients/${client.clientId}`;
  const actions =
    can.manageCredentials && client.state !== 'disabled'
      ? html`<p class="actions">
            <a class="button" href="${path}/handovers/new">Send credentials</a>
            <a class="button secondary" href="${path}/secrets/new">New secret</a>
            <a class="button secondary" href="${path}/certificates/new">Add certificate</a>
          </p>
          <p class="hint">
            Send credentials mails a one-time link: the recipient reveals a new secret that nobody else ever sees.
          </p>`
      : '';
  return html`<section class="panel" aria-labelledby="credentials-heading">
    <h2 id="credentials-heading">Credentials</h2>
    ${actions} ${secretsTable(base, client.clientId, input.secrets, can)}
    ${certificatesTable(base, client.clientId, input.certificates, can)}
  </section>`;
}

const HANDOVER_TONES = { pending: 'warn', revealed: 'good', expired: 'neutral', revoked: 'neutral' } as const;

function handoverWhen(h: HandoverView): SafeHtml | string {
  if (h.revealedAt)
    return html`revealed ${timeTag(new Date(h.revealedAt))}${h.revealedFrom ? ` from ${h.revealedFrom}` : ''}`;
  if (h.revokedAt) return html`revoked ${timeTag(new Date(h.revokedAt))}`;
  if (h.status === 'expired') return html`expired unrevealed ${timeTag(new Date(h.expiresAt))}; no secret was created`;
  return expiryTag(new Date(h.expiresAt), { future: 'link expires', past: 'link expired' });
}

/** What may be done with a handover: revoke a live one (or its secret), send an expired one again. */
function handoverAction(input: { base: string; clientId: string; csrf: string; can: ClientAbilities }, h: HandoverView): SafeHtml | string {
  if (!input.can.manageCredentials) return '—';
  const path = `${input.base}/clients/${input.clientId}/handovers/${h.id}`;
  if (h.status === 'pending' || h.status === 'revealed') {
    return html`<a href="${path}/revoke">Revoke<span class="visually-hidden"> handover to ${h.recipientEmail}</span></a>`;
  }
  if (h.status !== 'expired') return '—';
  return html`<form method="post" action="${path}/resend" class="inline">
    <input type="hidden" name="_csrf" value="${input.csrf}" />
    <button type="submit" class="secondary">Resend<span class="visually-hidden"> to ${h.recipientEmail}</span></button>
  </form>`;
}

export function handoversSection(input: {
  base: string;
  clientId: string;
  csrf: string;
  handovers: readonly HandoverView[];
  can: ClientAbilities;
}): SafeHtml {
  return html`<section class="panel" aria-labelledby="handovers-heading">
    <h2 id="handovers-heading">Handovers</h2>
    ${table({
      caption: 'Credential handovers, newest first',
      columns: [
        { header: 'Recipient', cell: (h: HandoverView) => h.recipientEmail },
        { header: 'Status', cell: (h) => badge(h.status, HANDOVER_TONES[h.status]) },
        { header: 'Sent', cell: (h) => timeTag(new Date(h.createdAt)) },
        { header: 'Outcome', cell: (h) => handoverWhen(h) },
        { header: 'Action', cell: (h) => handoverAction(input, h) },
      ],
      rows: input.handovers,
      empty: 'No handovers yet.',
    })}
  </section>`;
}

function detailsText(event: AuditEventView): string {
  const parts = Object.entries(event.details)
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== 'object')
    .slice(0, 4)
    .map(([key, value]) => `${key}: ${String(value)}`);
  return parts.join('; ');
}

export function historySection(input: {
  events: readonly AuditEventView[] | null;
  names: ReadonlyMap<string, string>;
  auditLink: string;
}): SafeHtml {
  if (!input.events) return html``;
  const who = (e: AuditEventView) =>
    e.actor.type === 'system'
      ? 'Gatehouse'
      : (e.actor.name ?? input.names.get(e.actor.userId ?? '') ?? e.actor.clientId ?? e.actor.type);
  return html`<section class="panel" aria-labelledby="history-heading">
    <h2 id="history-heading">History</h2>
    ${table({
      caption: "This client's audit events, newest first",
      columns: [
        { header: 'When', cell: (e: AuditEventView) => timeTag(new Date(e.occurredAt)) },
        { header: 'Who', cell: (e) => who(e) },
        { header: 'What', cell: (e) => html`<code>${e.action}</code>` },
        { header: 'Details', cell: (e) => detailsText(e) },
      ],
      rows: input.events,
      empty: 'Nothing recorded yet.',
    })}
    <p><a href="${input.auditLink}">The whole audit log for this client</a></p>
  </section>`;
}

export function stateSection(input: {
  base: string;
  csrf: string;
  client: ClientView;
  can: ClientAbilities;
}): SafeHtml {
  if (!input.can.manageState) return html``;
  const path = `${input.base}/clients/${input.client.clientId}`;
  const control =
    input.client.state === 'disabled'
      ? postForm({
          action: `${path}/enable`,
          csrf: input.csrf,
          submit: 'Enable the client',
          button: 'secondary',
          body: html`<p>Enabled again, it gets tokens with its credentials at once.</p>`,
        })
      : html`<p>Disabling stops every token request of this client at once, until it is enabled again.</p>
          <p><a class="button secondary" href="${path}/disable">Disable…</a></p>`;
  return html`<section class="panel" aria-labelledby="state-heading">
    <h2 id="state-heading">Enable or disable</h2>
    ${control}
  </section>`;
}
