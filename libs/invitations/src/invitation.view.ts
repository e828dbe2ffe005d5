import type { Invitation, InvitationStatus } from './invitation.entity.js';

export interface InvitationView {
  id: string;
  userId: string;
  sections: string[];
  status: InvitationStatus;
  expiresAt: string;
  createdAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
}

/** Pending past its expiry is expired, whether or not the sweep has run yet. */
export function effectiveStatus(
  invitation: Pick<Invitation, 'status' | 'expiresAt'>,
  now = new Date(),
): InvitationStatus {
  return invitation.status === 'pending' && invitation.expiresAt.getTime() <= now.getTime()
    ? 'expired'
    : invitation.status;
}

export function toInvitationView(invitation: Invitation): InvitationView {
  return {
    id: invitation.id,
    userId: invitation.userId,
    sections: [...invitation.sectionSlugs],
    status: effectiveStatus(invitation),
    expiresAt: invitation.expiresAt.toISOString(),
    createdAt: invitation.createdAt.toISOString(),
    acceptedAt: invitation.acceptedAt ? invitation.acceptedAt.toISOString() : null,
    revokedAt: invitation.revokedAt ? invitation.revokedAt.toISOString() : null,
  };
}
