import type { CredentialHandover, HandoverStatus } from './credential-handover.entity.js';

/** A handover as the admin API shows it: never a token, never a secret. */
export interface HandoverView {
  id: string;
  clientId: string;
  status: HandoverStatus;
  recipientEmail: string;
  expiresAt: string;
  accessRequestId: string | null;
  createdByUserId: string | null;
  createdAt: string;
  revealedAt: string | null;
  revealedFrom: string | null;
  /** The key id of the secret the reveal created. */
  secretKeyId: string | null;
  revokedAt: string | null;
}

/** Pending past its expiry is expired, whether or not the sweep has run yet. */
export function effectiveHandoverStatus(
  handover: Pick<CredentialHandover, 'status' | 'expiresAt'>,
  now = new Date(),
): HandoverStatus {
  return handover.status === 'pending' && handover.expiresAt.getTime() <= now.getTime() ? 'expired' : handover.status;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toHandoverView(handover: CredentialHandover, clientId: string): HandoverView {
  return {
    id: handover.id,
    clientId,
    status: effectiveHandoverStatus(handover),
    recipientEmail: handover.recipientEmail,
    expiresAt: handover.expiresAt.toISOString(),
    accessRequestId: handover.accessRequestId,
    createdByUserId: handover.createdByUserId,
    createdAt: handover.createdAt.toISOString(),
    revealedAt: iso(handover.revealedAt),
    revealedFrom: handover.revealedFrom,
    secretKeyId: handover.secretKeyId,
    revokedAt: iso(handover.revokedAt),
  };
}
