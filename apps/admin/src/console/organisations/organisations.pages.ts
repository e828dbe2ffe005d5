import type { Page } from '@gatehouse/database';
import type { OffboardingPreview, OrganisationDetail, OrganisationHandover, OrganisationState, OrganisationView } from '@gatehouse/organisations';
import { type BadgeTone, type FieldErrors, type SafeHtml, badge, filterForm, formError, html, inputField, pager, postForm, table, timeTag } from '@gatehouse/views';

const STATE_TONES: Record<OrganisationState, BadgeTone> = { active: 'good', offboarded: 'bad' };
export const organisationBadge = (state: OrganisationState) => badge(state, STATE_TONES[state]);
const TONES: Record<string, BadgeTone> = { active: 'good', disabled: 'bad', awaiting_scopes: 'warn', pending: 'neutral', revealed: 'good', expired: 'warn', revoked: 'bad' };
const state = (value: string) => badge(value.replace('_', ' '), TONES[value] ?? 'neutral');
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The organisation on a user, client or request page: a link for those who may open it, else its name ("—" when none). */
export function organisationLink(base: string, organisation: { id: string; name: string } | null, linked = true): SafeHtml | string {
  if (!organisation) return '—';
  return linked ? html`<a href="${base}/organisations/${organisation.id}">${organisation.name}</a>` : organisation.name;
}

export function organisationList(input: { base: string; page: Page<OrganisationView>; search: string; state: string; canManage: boolean }): SafeHtml {
  const path = `${input.base}/organisations`;
  const filtered = Boolean(input.search || input.state);
  const empty = filtered
    ? html`No organisation matches. <a href="${path}">Show all organisations</a>.`
    : input.canManage
      ? html`No organisations yet. <a href="${path}/new">Create one</a>, or approve an access request: it creates the organisation it names.`
      : 'No organisations yet. Approving an access request creates the organisation it names.';
  return html`${filterForm({
      action: path,
      fields: [
        { kind: 'text', name: 'search', label: 'Name contains', value: input.search },
        { kind: 'select', name: 'state', label: 'State', value: input.state, options: [{ value: '', label: 'Any' }, { value: 'active', label: 'Active' }, { value: 'offboarded', label: 'Offboarded' }] },
      ],
    })}
    ${table({
      caption: 'Partner organisations, newest first',
      columns: [
        { header: 'Name', cell: (o: OrganisationView) => html`<a href="${path}/${o.id}">${o.name}</a>` },
        { header: 'State', cell: (o: OrganisationView) => organisationBadge(o.state) },
        { header: 'Offboarded', cell: (o: OrganisationView) => (o.offboardedAt ? timeTag(new Date(o.offboardedAt)) : '—') },
        { header: 'Created', cell: (o: OrganisationView) => timeTag(new Date(o.createdAt)) },
      ],
      rows: input.page.items,
      empty,
    })}
    ${pager({ path, filters: { search: input.search, state: input.state }, older: input.page.nextCursor, olderParam: 'cursor' })}`;
}

export function newOrganisationForm(input: { action: string; back: string; csrf: string; name: string; errors: FieldErrors; error?: string }): SafeHtml {
  return html`${formError(input.error)}
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: 'Create the organisation',
      aside: html`<a href="${input.back}">Cancel</a>`,
      body: inputField({ name: 'name', label: 'Name', hint: 'The partner company, e.g. "Acme Logistics GmbH". Unique in this tenant, whatever the case.', value: input.name, error: input.errors.name, maxlength: 200, required: true }),
    })}`;
}

function summary(base: string, o: OrganisationDetail, offboardedBy: string | null, canAudit: boolean): SafeHtml {
  const record = o.offboarding;
  return html`<section class="panel" aria-labelledby="summary-heading">
    <h2 id="summary-heading">Summary</h2>
    <dl class="summary">
      <dt>Organisation id</dt>
      <dd><code class="mono" data-copy="organisation id">${o.id}</code></dd>
      <dt>State</dt>
      <dd>${organisationBadge(o.state)}${o.state === 'offboarded' && o.offboardedAt ? html` ${timeTag(new Date(o.offboardedAt))}${offboardedBy ? ` by ${offboardedBy}` : ''}` : ''}</dd>
      ${record
        ? html`<dt>The offboarding</dt>
            <dd>disabled ${plural(record.usersDisabled, 'person', 'people')} and ${plural(record.clientsDisabled, 'client')}, revoked ${plural(record.invitationsRevoked, 'invitation')} and ${plural(record.handoversRevoked, 'handover')}, ended ${plural(record.sessionsEnded, 'session')}. Restore reverses exactly that.</dd>`
        : ''}
      <dt>Created</dt>
      <dd>${timeTag(new Date(o.createdAt))}</dd>
    </dl>
    ${canAudit ? html`<p><a href="${base}/audit?target=${o.id}">History of this organisation</a></p>` : ''}
  </section>`;
}

const more = (shown: number, total: number) => (total > shown ? html`<p class="hint">Showing ${shown} of ${total}.</p>` : '');

function members(base: string, o: OrganisationDetail): SafeHtml {
  const section = (id: string, title: string, count: number, body: SafeHtml) =>
    html`<section class="panel" aria-labelledby="${id}"><h2 id="${id}">${title} (${count})</h2>${body}</section>`;
  return html`${section('people-heading', 'People', o.counts.people, html`${table({
      caption: 'People of the organisation',
      columns: [
        { header: 'Name', cell: (p) => html`<a href="${base}/users/${p.id}">${p.displayName}</a>` },
        { header: 'Username', cell: (p) => html`<code>${p.username}</code>` },
        { header: 'Email', cell: (p) => p.email },
        { header: 'Status', cell: (p) => state(p.status) },
      ],
      rows: o.people,
      empty: 'Nobody yet. Approving an access request that names this organisation puts the requester here; a person can also be moved here from the API.',
    })}${more(o.people.length, o.counts.people)}`)}
    ${section('clients-heading', 'Clients', o.counts.clients, html`${table({
      caption: 'Clients of the organisation',
      columns: [
        { header: 'Name', cell: (c) => html`<a href="${base}/clients/${c.clientId}">${c.displayName}</a>` },
        { header: 'Client id', cell: (c) => html`<code class="mono">${c.clientId}</code>` },
        { header: 'State', cell: (c) => state(c.state) },
        { header: 'Contact', cell: (c) => c.contactEmail ?? '—' },
      ],
      rows: o.clients,
      empty: 'No clients yet. Approving an API request that names this organisation creates its client here.',
    })}${more(o.clients.length, o.counts.clients)}`)}
    ${section('requests-heading', 'Access requests', o.counts.requests, html`${table({
      caption: 'Access requests that named the organisation',
      columns: [
        { header: 'Requester', cell: (r) => html`<a href="${base}/requests/${r.id}">${r.requesterName}</a>` },
        { header: 'Email', cell: (r) => r.requesterEmail },
        { header: 'State', cell: (r) => state(r.status) },
        { header: 'Filed', cell: (r) => timeTag(new Date(r.createdAt)) },
      ],
      rows: o.requests,
      empty: 'No approved access request named this organisation yet.',
    })}${more(o.requests.length, o.counts.requests)}`)}
    ${section('handovers-heading', 'Handovers', o.counts.handovers, html`${table({
      caption: 'Credential handovers of its clients, newest first',
      columns: [
        { header: 'Client', cell: (h: OrganisationHandover) => html`<a href="${base}/clients/${h.clientId}">${h.clientName}</a>` },
        { header: 'Recipient', cell: (h: OrganisationHandover) => h.recipientEmail },
        { header: 'State', cell: (h: OrganisationHandover) => state(h.status) },
        { header: 'Expires', cell: (h: OrganisationHandover) => timeTag(new Date(h.expiresAt)) },
      ],
      rows: o.handovers,
      empty: 'No credentials handed over to its clients yet.',
    })}${more(o.handovers.length, o.counts.handovers)}`)}`;
}

export function organisationDetail(input: { base: string; csrf: string; organisation: OrganisationDetail; offboardedBy: string | null; canManage: boolean; canAudit: boolean }): SafeHtml {
  const o = input.organisation;
  const path = `${input.base}/organisations/${o.id}`;
  const restore =
    input.canManage && o.state === 'offboarded'
      ? html`<section class="panel" aria-labelledby="restore-heading"><h2 id="restore-heading">Restore</h2>
          ${postForm({ action: `${path}/restore`, csrf: input.csrf, submit: 'Restore', body: html`<p>Restore enables again what the offboarding disabled and makes its invitations and handovers pending again (until they expire); what was disabled before stays so. Sessions that were ended stay ended: people sign in again.</p>` })}
        </section>`
      : '';
  return html`${summary(input.base, o, input.offboardedBy, input.canAudit)}${restore}${members(input.base, o)}`;
}

export function offboardConfirmation(input: { path: string; csrf: string; name: string; preview: OffboardingPreview }): SafeHtml {
  const p = input.preview;
  return html`<p>Offboard <strong>${input.name}</strong>: everything of this partner stops working at once, in one step.</p>
    <ul class="effects">
      <li>${plural(p.usersToDisable, 'person', 'people')} disabled: they can no longer sign in.</li>
      <li>${plural(p.clientsToDisable, 'client')} disabled: their next token request fails, whatever secret or certificate they hold.</li>
      <li>${plural(p.invitationsToRevoke, 'pending invitation')} revoked and ${plural(p.handoversToRevoke, 'pending handover')} revoked: their links stop working.</li>
      <li>${plural(p.sessionsToEnd, 'open session')} ended.</li>
    </ul>
    <p class="notice">The contact persons are told by mail. Restore reverses exactly this later; anything already disabled stays as it is.</p>
    ${postForm({ action: `${input.path}/offboard`, csrf: input.csrf, submit: `Offboard ${input.name}`, button: 'danger', body: html``, aside: html`<a href="${input.path}">Cancel</a>` })}`;
}
