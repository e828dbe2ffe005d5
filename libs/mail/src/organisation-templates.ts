import { type RenderedEmail, oneLine, page } from './templates.js';

export interface OrganisationChangeMail {
  tenantName: string;
  organisation: string;
  /** `offboarded`: everything of it was switched off; `restored`: what the offboarding changed is back. */
  kind: 'offboarded' | 'restored';
  /** Who did it, as the console names them (`null`: the system). */
  actorName: string | null;
  usersChanged: number;
  clientsChanged: number;
  invitationsChanged: number;
  handoversChanged: number;
  sessionsEnded: number;
  /** The first people and clients changed, by name. */
  people: string[];
  clients: string[];
}

const listed = (label: string, names: string[], total: number) =>
  total === 0 ? [] : [`${label}: ${names.join(', ')}${total > names.length ? ` and ${total - names.length} more` : ''}.`];

/** Tells the tenant's contact persons what an offboarding (or its restore) of a partner organisation did. */
export function organisationChangeEmail(input: OrganisationChangeMail): RenderedEmail {
  const by = input.actorName ? ` by ${input.actorName}` : '';
  const offboarded = input.kind === 'offboarded';
  const summary = offboarded
    ? `The partner organisation ${input.organisation} was offboarded${by} in ${input.tenantName}. ` +
      `${input.usersChanged} people and ${input.clientsChanged} clients were disabled, ${input.invitationsChanged} pending invitations and ` +
      `${input.handoversChanged} pending handovers revoked, and ${input.sessionsEnded} sessions ended.`
    : `The partner organisation ${input.organisation} was restored${by} in ${input.tenantName}. ` +
      `${input.usersChanged} people and ${input.clientsChanged} clients are enabled again, and ${input.invitationsChanged} invitations and ` +
      `${input.handoversChanged} handovers are pending again. Anything that was disabled before the offboarding stays as it was.`;
  const next = offboarded
    ? 'Nobody of the organisation can sign in or get a token now. If this was a mistake, open the organisation in the Gatehouse console and choose Restore.'
    : 'People of the organisation sign in again with their passwords; its clients get tokens with their existing credentials.';
  const lines = [summary, ...listed('People', input.people, input.usersChanged), ...listed('Clients', input.clients, input.clientsChanged), next];
  const title = offboarded ? `Organisation offboarded: ${input.organisation}` : `Organisation restored: ${input.organisation}`;
  return {
    template: offboarded ? 'organisation-offboarded' : 'organisation-restored',
    subject: oneLine(title),
    text: `${lines.join('\n\n')}\n`,
    html: page(oneLine(title), lines),
  };
}
