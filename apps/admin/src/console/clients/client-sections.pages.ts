import type { AuditEventView } from '@gatehouse/audit';
import type { CertificateView, ClientView, SecretView } from '@gatehouse/clients';
import type { HandoverView } from '@gatehouse/handovers';
import { type SafeHtml, badge, csrfInput, html, postForm, table, expiryTag, timeTag } from '@gatehouse/views';
import { lastUseCell } from '../credentials/credentials.pages.js';
import { disabledNote, enableAgainLink, lastUseAndState } from './credential-enabling.pages.js';

/** What the signed-in person may do on this client (their permissions and the operator-client rule). */
export interface ClientAbilities {
  assignScopes: boolean;
  /** Network restriction and quota: Scopes.Assign, and an operator client's owner or an Administrator. */
  setLimits: boolean;
  manageCredentials: boolean;
  manageState: boolean;
  readHistory: boolean;
}

function secretStatus(secret: SecretView): SafeHtml {
  if (secret.revokedAt) return badge('revoked', 'neutral');
  if (new Date(secret.expiresAt).getTime() <= Date.now()) return badge('expired', 'bad');
  return secret.disabledAt ? html`${disabledNote(secret.disabledAt)}` : badge('active', 'good');
}

function secretAction(path: string, s: SecretView, can: ClientAbilities): SafeHtml | string {
  if (!can.manageCredentials || s.revokedAt) return '—';
  const enable = s.disabledAt ? html`${enableAgainLink(path, 'secrets', s.keyId, `secret ${s.hint}…`)} ` : '';
  return html`${enable}<a href="${path}/secrets/${s.keyId}/revoke">Revoke<span class="visually-hidden"> secret ${s.hint}…</span></a>`;
}

function certificateAction(path: string, c: CertificateView, can: ClientAbilities): SafeHtml | string {
  if (!can.manageCredentials) return '—';
  const enable = c.disabledAt ? html`${enableAgainLink(path, 'certificates', c.keyId, `certificate ${c.thumbprint}`)} ` : '';
  return html`${enable}<a href="${path}/certificates/${c.keyId}/remove">Remove<span class="visually-hidden"> certificate ${c.thumbprint}</span></a>`;
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
      { header: 'Last used', cell: (s) => lastUseCell(s.lastUsedAt, s.lastUsedFrom) },
      { header: 'Action', cell: (s) => secretAction(`${base}/clients/${clientId}`, s, can) },
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
      { header: 'Last used', cell: (c) => lastUseAndState(c) },
      { header: 'Action', cell: (c) => certificateAction(`${base}/clients/${clientId}`, c, can) },
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
    ${csrfInput(input.csrf)}
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
