import type { AccessRequest, AccessRequestOrigin, AccessRequestStatus } from './access-request.entity.js';

/** An access request as the admin API and the console show it: never a token hash. */
export interface AccessRequestView {
  id: string;
  status: AccessRequestStatus;
  origin: AccessRequestOrigin;
  requesterName: string;
  requesterEmail: string;
  organisation: string;
  /** The partner organisation the approval put the requester into (by that name). */
  organisationId: string | null;
  account: { documentation: string; reason: string } | null;
  api: { systemName: string; technicalContactEmail: string; purpose: string } | null;
  sourceAddress: string | null;
  filedByUserId: string | null;
  /** Until when the requester may confirm the address (only while `unverified`). */
  confirmationExpiresAt: string | null;
  confirmedAt: string | null;
  decidedByUserId: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
  sections: string[];
  userId: string | null;
  /** The public client id of the API client the approval created. */
  clientId: string | null;
  invitationId: string | null;
  accountDeliveredAt: string | null;
  credentialsDeliveredAt: string | null;
  fulfilledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Unconfirmed past its 24 hours is expired, whether or not the sweep has run yet. */
export function effectiveRequestStatus(
  request: Pick<AccessRequest, 'status' | 'confirmExpiresAt'>,
  now = new Date(),
): AccessRequestStatus {
  const overdue = request.confirmExpiresAt !== null && request.confirmExpiresAt.getTime() <= now.getTime();
  return request.status === 'unverified' && overdue ? 'expired' : request.status;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toAccessRequestView(request: AccessRequest): AccessRequestView {
  const status = effectiveRequestStatus(request);
  return {
    id: request.id,
    status,
    origin: request.origin,
    requesterName: request.requesterName,
    requesterEmail: request.requesterEmail,
    organisation: request.organisation,
    organisationId: request.organisationId ?? null,
    account: request.wantsAccount
      ? { documentation: request.documentationWanted ?? '', reason: request.accountReason ?? '' }
      : null,
    api: request.wantsApi
      ? {
          systemName: request.systemName ?? '',
          technicalContactEmail: request.technicalContactEmail ?? '',
          purpose: request.apiPurpose ?? '',
        }
      : null,
    sourceAddress: request.sourceAddress,
    filedByUserId: request.filedByUserId,
    confirmationExpiresAt: status === 'unverified' ? iso(request.confirmExpiresAt) : null,
    confirmedAt: iso(request.confirmedAt),
    decidedByUserId: request.decidedByUserId,
    decidedAt: iso(request.decidedAt),
    decisionNote: request.decisionNote,
    sections: [...request.sectionSlugs],
    userId: request.userId,
    clientId: request.apiClient?.clientId ?? null,
    invitationId: request.invitationId,
    accountDeliveredAt: iso(request.accountDeliveredAt),
    credentialsDeliveredAt: iso(request.credentialsDeliveredAt),
    fulfilledAt: iso(request.fulfilledAt),
    createdAt: request.createdAt.toISOString(),
    updatedAt: request.updatedAt.toISOString(),
  };
}
