import type { Organisation, OrganisationState } from './organisation.entity.js';

export interface OrganisationView {
  id: string;
  name: string;
  state: OrganisationState;
  offboardedAt: string | null;
  offboardedByUserId: string | null;
  /** What the offboarding changed (while offboarded), in counts. */
  offboarding: OffboardingCounts | null;
  createdAt: string;
  updatedAt: string;
}

export interface OffboardingCounts {
  usersDisabled: number;
  clientsDisabled: number;
  invitationsRevoked: number;
  handoversRevoked: number;
  sessionsEnded: number;
}

export interface OrganisationPerson {
  id: string;
  username: string;
  displayName: string;
  email: string;
  status: string;
  roles: string[];
}

export interface OrganisationClient {
  clientId: string;
  displayName: string;
  state: string;
  contactEmail: string | null;
}

export interface OrganisationRequest {
  id: string;
  requesterName: string;
  requesterEmail: string;
  status: string;
  createdAt: string;
}

export interface OrganisationHandover {
  id: string;
  clientId: string;
  clientName: string;
  recipientEmail: string;
  status: string;
  expiresAt: string;
}

/** Who and what belongs to it: each list the first 100, with the full count beside it. */
export interface OrganisationMembers {
  people: OrganisationPerson[];
  clients: OrganisationClient[];
  requests: OrganisationRequest[];
  handovers: OrganisationHandover[];
  counts: { people: number; clients: number; requests: number; handovers: number };
}

export type OrganisationDetail = OrganisationView & OrganisationMembers;

/** What an offboarding would do now (the console's confirmation page). */
export interface OffboardingPreview {
  usersToDisable: number;
  clientsToDisable: number;
  invitationsToRevoke: number;
  handoversToRevoke: number;
  sessionsToEnd: number;
}

export function organisationView(row: Organisation): OrganisationView {
  const record = row.state === 'offboarded' ? row.offboarding : null;
  return {
    id: row.id,
    name: row.name,
    state: row.state,
    offboardedAt: row.offboardedAt ? row.offboardedAt.toISOString() : null,
    offboardedByUserId: row.offboardedByUserId,
    offboarding: record
      ? {
          usersDisabled: record.userIds.length,
          clientsDisabled: record.clients.length,
          invitationsRevoked: record.invitationIds.length,
          handoversRevoked: record.handoverIds.length,
          sessionsEnded: record.sessionsEnded,
        }
      : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
