import type { UserView } from '@gatehouse/accounts';
import type { ClientView } from '@gatehouse/clients';
import type { HandoverView } from '@gatehouse/handovers';
import type { InvitationView } from '@gatehouse/invitations';
import { type AccessRequestStatus, type AccessRequestView, TEXT_MAX } from '@gatehouse/requests';
import { stateBadge as clientStateBadge } from '../clients/clients.pages.js';
import { organisationLink } from '../organisations/organisations.pages.js';
import {
  type BadgeTone,
  type FieldErrors,
  type Option,
  type SafeHtml,
  badge,
  checkboxGroup,
  duration,
  filterForm,
  listUrl,
  html,
  inputField,
  pager,
  postForm,
  table,
  textareaField,
  expiryTag,
  timeTag,
} from '@gatehouse/views';

/** One word (or few) per state, the same on the badge and in the filter. */
export const REQUEST_STATE_LABELS: Readonly<Record<AccessRequestStatus, string>> = {
  submitted: 'waiting for a decision',
  unverified: 'address not confirmed',
  approved: 'approved, not yet handed over',
  fulfilled: 'fulfilled',
  rejected: 'rejected',
  expired: 'expired unconfirmed',
};

export const STATE_OPTIONS: Option[] = [
  ...Object.entries(REQUEST_STATE_LABELS).map(([value, label]) => ({ value, label })),
  { value: 'all', label: 'any state' },
];

const TONE: Record<AccessRequestStatus, BadgeTone> = {
  unverified: 'neutral',
  submitted: 'warn',
  approved: 'good',
  fulfilled: 'good',
  rejected: 'bad',
  expired: 'neutral',
};

export const stateBadge = (r: Pick<AccessRequestView, 'status'>) => badge(REQUEST_STATE_LABELS[r.status] ?? r.status, TONE[r.status]);

/** "Account + API (Orders sync)". */
export function whatText(r: AccessRequestView): string {
  const parts = [r.account ? 'Personal account' : '', r.api ? `API access (${r.api.systemName})` : ''].filter(Boolean);
  return parts.join(' + ');
}

export function requestQueue(input: {
  base: string;
  state: string;
  q: string;
  sort: string;
  requests: AccessRequestView[];
  previous?: string;
  next: string | null;
}): SafeHtml {
  const { base } = input;
  const filters = { status: input.state, q: input.q, sort: input.sort };
  return html`${filterForm({
      action: `${base}/requests`,
      submit: 'Show',
      keep: { sort: input.sort },
      fields: [
        { kind: 'text', name: 'q', id: 'filter-q', label: 'Search', hint: 'Name, email, organisation or system', value: input.q },
        { kind: 'select', name: 'status', label: 'State', options: STATE_OPTIONS, value: input.state },
      ],
    })}
    ${table({
      caption: input.sort ? 'Access requests' : 'Access requests, oldest first',
      sorting: { current: input.sort, url: (sort) => listUrl(`${base}/requests`, { ...filters, sort }) },
      columns: [
        { header: 'Requester', sort: 'requester', cell: (r: AccessRequestView) => html`<a href="${base}/requests/${r.id}">${r.requesterName}</a><br /><span class="hint">${r.requesterEmail}</span>` },
        { header: 'Organisation', sort: 'organisation', cell: (r) => r.organisation },
        { header: 'What', cell: (r) => whatText(r) },
        { header: 'State', cell: (r) => stateBadge(r) },
        { header: 'Age', cell: (r) => html`<time datetime="${r.createdAt}">${duration(new Date(), new Date(r.createdAt))}</time>` },
      ],
      rows: input.requests,
      empty: input.q
        ? html`No access request in this state matches “${input.q}”. <a href="${listUrl(`${base}/requests`, { status: input.state })}">Clear the search</a>.`
        : input.state === 'submitted' ? 'Nothing waiting for a decision.' : 'No access requests in this state.',
    })}
    ${pager({
      path: `${base}/requests`,
      filters,
      newer: input.previous,
      older: input.next,
      labels: input.sort ? { newer: 'Previous', older: 'Next' } : { newer: 'Older', older: 'Newer' },
    })}`;
}

function filedBy(input: TrailInput): SafeHtml | string {
  const r = input.request;
  if (r.origin !== 'staff') return 'through the public form';
  return input.filer ? html`by <a href="${input.base}/users/${input.filer.id}">${input.filer.displayName}</a>, for the requester` : 'by staff, for the requester';
}

function asked(input: TrailInput): SafeHtml {
  const r = input.request;
  return html`<section class="panel" aria-labelledby="asked"><h2 id="asked">What was asked</h2>
    <dl class="summary">
      <dt>Requester</dt><dd>${r.requesterName} &lt;${r.requesterEmail}&gt;</dd>
      <dt>Organisation</dt><dd>${input.organisation ? organisationLink(input.base, input.organisation, input.organisationLinked) : r.organisation}</dd>
      <dt>Filed</dt><dd>${timeTag(new Date(r.createdAt))} ${filedBy(input)}${r.sourceAddress ? html`, from <code>${r.sourceAddress}</code>` : ''}</dd>
      <dt>Address confirmed</dt><dd>${r.confirmedAt ? timeTag(new Date(r.confirmedAt)) : r.origin === 'staff' ? 'not needed (filed by staff)' : 'not yet'}</dd>
      ${r.account
        ? html`<dt>Documentation wanted</dt><dd>${r.account.documentation}</dd><dt>Why</dt><dd>${r.account.reason}</dd>`
        : ''}
      ${r.api
        ? html`<dt>System</dt><dd>${r.api.systemName}</dd><dt>Technical contact</dt><dd>${r.api.technicalContactEmail}</dd><dt>It must</dt><dd>${r.api.purpose}</dd>`
        : ''}
      <dt>State</dt><dd>${stateBadge(r)}</dd>
    </dl></section>`;
}

export interface DecisionInput {
  base: string;
  csrf: string;
  request: AccessRequestView;
  sections: Option[];
  approve: { note: string; sections: string[]; expiresInHours: string };
  reject: { note: string };
  errors: FieldErrors;
}

function decision(input: DecisionInput): SafeHtml {
  const { base, csrf, request: r, errors } = input;
  const path = `${base}/requests/${r.id}`;
  const noSections = html`<p class="empty" id="no-sections">There are no documentation sections yet, so the new user is invited to none: the
      requester gets an activation link. <a href="${base}/docs/new">Create a documentation section</a> first to invite them to it.</p>`;
  const sectionChoice = !r.account
    ? ''
    : !input.sections.length
      ? noSections
      : html`${checkboxGroup({ name: 'sections', label: 'Invite the new user to these sections', options: input.sections, values: input.approve.sections, error: errors.sections })}
      ${inputField({ name: 'expiresInHours', label: 'Invitation valid for (hours)', hint: '1 to 720; 168 is a week.', value: input.approve.expiresInHours, inputmode: 'numeric', error: errors.expiresInHours })}`;
  const creates = [r.account ? 'the user account (the requester gets one link to choose a password: the invitation\'s when you choose sections, else an activation link)' : '', r.api ? `the API client "${r.api.systemName}", awaiting scopes from the IT department` : ''].filter(Boolean).join(' and ');
  return html`<section class="panel" aria-labelledby="decide"><h2 id="decide">Decision</h2>
    <h3>Approve</h3>
    <p>Creates ${creates}.</p>
    ${postForm({
      action: `${path}/approve`,
      csrf,
      submit: 'Approve',
      body: html`${sectionChoice}${textareaField({ name: 'note', id: 'approve-note', label: 'Note to the requester (optional)', value: input.approve.note, maxlength: TEXT_MAX, error: errors.approveNote })}`,
    })}
    <h3>Reject</h3>
    ${postForm({
      action: `${path}/reject`,
      csrf,
      submit: 'Reject',
      button: 'danger',
      body: textareaField({ name: 'note', id: 'reject-note', label: 'Why (mailed to the requester)', hint: 'Say what they can do instead.', value: input.reject.note, maxlength: TEXT_MAX, required: true, error: errors.rejectNote }),
    })}</section>`;
}

export interface TrailInput {
  base: string;
  request: AccessRequestView;
  invitation: InvitationView | null;
  /** The client the approval created, when the reader may see clients. */
  client: ClientView | null;
  /** The account the approval created and the person who decided, when the reader may see users. */
  user: UserView | null;
  decider: UserView | null;
  /** The staff member who filed it for the requester. */
  filer: UserView | null;
  handovers: HandoverView[] | null;
  /** The partner organisation the approval put the requester into, and whether the reader may open its page. */
  organisation?: { id: string; name: string } | null;
  organisationLinked?: boolean;
}

function trail(input: TrailInput): SafeHtml {
  const { base, request: r } = input;
  const rows: SafeHtml[] = [];
  if (r.decidedAt) {
    const by = input.decider ? html` by <a href="${base}/users/${input.decider.id}">${input.decider.displayName}</a>` : '';
    rows.push(html`<dt>Decided</dt><dd>${r.status === 'rejected' ? badge('rejected', 'bad') : badge('approved', 'good')} ${timeTag(new Date(r.decidedAt))}${by}</dd>`);
    if (r.decisionNote) rows.push(html`<dt>Note to the requester</dt><dd>${r.decisionNote}</dd>`);
  }
  if (r.userId) {
    const name = input.user ? html`${input.user.displayName} (<code>${input.user.username}</code>)` : 'The new user account';
    rows.push(html`<dt>User</dt><dd><a href="${base}/users/${r.userId}">${name}</a>${r.accountDeliveredAt ? html`; account details sent ${timeTag(new Date(r.accountDeliveredAt))}` : ''}</dd>`);
  }
  if (input.invitation) rows.push(html`<dt>Invitation</dt><dd>${input.invitation.sections.join(', ')}: ${badge(input.invitation.status)}</dd>`);
  if (r.clientId) {
    const c = input.client;
    const name = c ? html`${c.displayName} (<code>${r.clientId}</code>)` : html`<code>${r.clientId}</code>`;
    rows.push(html`<dt>Client</dt><dd><a href="${base}/clients/${r.clientId}">${name}</a>${c ? html` ${clientStateBadge(c.state)}` : ''}</dd>`);
  }
  for (const h of input.handovers ?? []) {
    rows.push(html`<dt>Handover</dt><dd>to ${h.recipientEmail}: ${badge(h.status)} ${h.revealedAt ? html`revealed ${timeTag(new Date(h.revealedAt))}` : expiryTag(new Date(h.expiresAt), { future: 'link expires', past: 'link expired' })}</dd>`);
  }
  if (r.credentialsDeliveredAt) rows.push(html`<dt>Credentials</dt><dd>handed over ${timeTag(new Date(r.credentialsDeliveredAt))}</dd>`);
  if (r.fulfilledAt) rows.push(html`<dt>Fulfilled</dt><dd>${timeTag(new Date(r.fulfilledAt))}</dd>`);
  if (!rows.length) return html``;
  return html`<section class="panel" aria-labelledby="trail"><h2 id="trail">What it produced</h2><dl class="summary">${rows}</dl></section>`;
}

export function requestDetail(input: DecisionInput & TrailInput & { mayDecide: boolean }): SafeHtml {
  const open = input.request.status === 'submitted';
  return html`${asked(input)}${open && input.mayDecide ? decision(input) : ''}${trail(input)}`;
}
