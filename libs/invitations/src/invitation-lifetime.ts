import { InvitationError, InvitationErrorCode } from './invitation.errors.js';

export const DEFAULT_INVITATION_HOURS = 168;
export const MAX_INVITATION_HOURS = 720;
/** The shortest invitation (for a test or a demo), and the longest, in minutes. */
export const MIN_INVITATION_MINUTES = 5;
export const MAX_INVITATION_MINUTES = MAX_INVITATION_HOURS * 60;

/** How long a new link is valid: whole hours, or whole minutes for a short one; at most one of the two. */
export interface InvitationLifetime {
  expiresInHours?: number;
  expiresInMinutes?: number;
}

const inRange = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;

function invalid(message: string): InvitationError {
  return new InvitationError(InvitationErrorCode.InvalidExpiry, message);
}

/** The lifetime in minutes; 168 hours when neither is given. */
export function lifetimeMinutes(lifetime: InvitationLifetime = {}): number {
  const { expiresInHours: hours, expiresInMinutes: minutes } = lifetime;
  if (hours !== undefined && minutes !== undefined) throw invalid('Give expiresInHours or expiresInMinutes, not both.');
  if (minutes !== undefined) {
    if (!inRange(minutes, MIN_INVITATION_MINUTES, MAX_INVITATION_MINUTES)) {
      throw invalid(`expiresInMinutes must be an integer from ${MIN_INVITATION_MINUTES} to ${MAX_INVITATION_MINUTES}.`);
    }
    return minutes;
  }
  const value = hours ?? DEFAULT_INVITATION_HOURS;
  if (!inRange(value, 1, MAX_INVITATION_HOURS)) throw invalid(`expiresInHours must be an integer from 1 to ${MAX_INVITATION_HOURS}.`);
  return value * 60;
}

/** What the audit event records of the lifetime: the field the caller used. */
export function lifetimeDetails(lifetime: InvitationLifetime = {}): Record<string, number> {
  return lifetime.expiresInMinutes !== undefined
    ? { expiresInMinutes: lifetime.expiresInMinutes }
    : { expiresInHours: lifetime.expiresInHours ?? DEFAULT_INVITATION_HOURS };
}
