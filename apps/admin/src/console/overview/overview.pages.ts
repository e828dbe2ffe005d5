import { type SafeHtml, html, table, timeTag } from '@gatehouse/views';
import type { QueueName, RecentEvent, WorkQueues } from '@gatehouse/workqueues';

interface QueueCard {
  label: string;
  hint: string;
  /**
   * The filtered list the number opens. These are the list filters the page groups serve:
   * `requests?status=submitted`, `clients?state=awaiting_scopes`, `clients?secrets=expiring`, `email?status=abandoned`,
   * `users?invitations=expiring`, `users?status=locked`, `clients?handovers=expired`.
   */
  path: string;
}

export const QUEUE_CARDS: Record<QueueName, QueueCard> = {
  requestsToDecide: {
    label: 'Access requests to decide',
    hint: 'Confirmed by the requester: approve or reject them.',
    path: 'requests?status=submitted',
  },
  clientsAwaitingScopes: {
    label: 'Clients awaiting scopes',
    hint: 'Assign scopes so they can get tokens.',
    path: 'clients?state=awaiting_scopes',
  },
  secretsExpiring: {
    label: 'Secrets expiring within 30 days',
    hint: 'Or expired and still there: rotate them before clients fail.',
    path: 'clients?secrets=expiring',
  },
  abandonedMail: {
    label: 'Mail not delivered',
    hint: 'Given up after retries: fix the address or the server, then retry.',
    path: 'email?status=abandoned',
  },
  invitationsExpiring: {
    label: 'Invitations expiring within 48 hours',
    hint: 'Not accepted yet: remind the person, or resend.',
    path: 'users?invitations=expiring',
  },
  lockedAccounts: {
    label: 'Locked accounts',
    hint: 'After repeated failed sign-ins: unlock when the person is sure.',
    path: 'users?status=locked',
  },
  handoversExpired: {
    label: 'Handovers expired without being revealed',
    hint: 'No secret was created: check the address with the partner, then Resend on the client.',
    path: 'clients?handovers=expired',
  },
  credentialsOutsidePolicy: {
    label: 'Credentials outside the policy',
    hint: 'Older than the credential policy: they still work; replace them with ones it allows.',
    path: 'clients/outside-policy',
  },
};

function card(base: string, name: QueueName, count: number): SafeHtml {
  const { label, hint, path } = QUEUE_CARDS[name];
  return html`<li>
    <a class="card" href="${base}/${path}">
      <span class="card-figure ${count ? '' : 'zero'}">${count}</span>
      <span class="card-label">${label}</span>
      <span class="hint">${count ? hint : 'Nothing waiting.'}</span>
    </a>
  </li>`;
}

function who(event: RecentEvent): string {
  if (event.actorType === 'system') return 'System';
  return event.actorName ?? (event.actorId ? `${event.actorType} ${event.actorId.slice(0, 8)}` : event.actorType);
}

function target(event: RecentEvent): string {
  return event.targetName ?? (event.targetId ? `${event.targetType} ${event.targetId.slice(0, 8)}` : event.targetType);
}

function recent(events: RecentEvent[]): SafeHtml {
  return html`<h2 id="recent">Recent activity</h2>
    ${table({
      caption: 'The last ten audit events of this tenant',
      columns: [
        { header: 'When', cell: (e: RecentEvent) => timeTag(new Date(e.occurredAt)) },
        { header: 'Who', cell: (e) => who(e) },
        { header: 'What', cell: (e) => html`<code>${e.action}</code>` },
        { header: 'On', cell: (e) => target(e) },
      ],
      rows: events,
      empty: 'Nothing has happened in this tenant yet.',
    })}`;
}

export function overviewPage(input: { base: string; queues: WorkQueues; events: RecentEvent[] | null }): SafeHtml {
  const names = (Object.keys(QUEUE_CARDS) as QueueName[]).filter((name) => input.queues[name] !== undefined);
  const queues = names.length
    ? html`<h2 id="waiting">Waiting for you</h2>
        <ul class="cards" aria-labelledby="waiting">
          ${names.map((name) => card(input.base, name, input.queues[name]!))}
        </ul>`
    : html`<p>Your roles have no work queues: nothing waits for you here.</p>`;
  return html`${queues} ${input.events ? recent(input.events) : ''}`;
}
