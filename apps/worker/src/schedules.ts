/**
 * Every scheduled job of the worker, declared in one place (run through @nestjs/schedule's
 * SchedulerRegistry by SchedulerService). Each handler is thin: it finds the
 * due work in one query and does it in bounded batches, safe on several replicas at once.
 */
export interface Schedule {
  name: string;
  everyMs: number;
}

export const SCHEDULES = {
  /** Rolls signing keys past their active age; published keys outlive every token they signed. */
  keyRotation: { name: 'key-rotation', everyMs: 60 * 60 * 1000 },
  /** Mails the links asked for on "Forgot your password?" (the form only queues the request). */
  passwordResets: { name: 'password-reset-requests', everyMs: 5 * 1000 },
  /** Sends queued mail (claimed with SKIP LOCKED, retried with backoff, abandoned after the cap). */
  outboxDelivery: { name: 'outbox-delivery', everyMs: 5 * 1000 },
  /** When mail waits because SMTP was unreachable, checks whether it answers again and wakes that mail. */
  smtpProbe: { name: 'smtp-probe', everyMs: 15 * 1000 },
  /** Audits each overdue pending invitation once as expired, in batches (`SWEEP_BATCH_SIZE`) with a rest after each. */
  invitationExpiry: { name: 'invitation-expiry', everyMs: 60 * 1000 },
  /** Mails each client's contact once per secret, 14 days before it expires. */
  secretExpiryWarning: { name: 'secret-expiry-warning', everyMs: 24 * 60 * 60 * 1000 },
  /** Reports each credential unused for the tenant's staleCredentialDays once (mail and audit). */
  staleCredentials: { name: 'stale-credentials', everyMs: 24 * 60 * 60 * 1000 },
  /** Drops failure counters whose window has passed, and the jtis of expired client assertions. */
  throttlePurge: { name: 'throttle-purge', everyMs: 10 * 60 * 1000 },
  /** Deletes Web UI sessions that ended (logout, timeout) more than a day ago (one DELETE). */
  sessionPurge: { name: 'session-purge', everyMs: 60 * 60 * 1000 },
  /** Marks access requests unconfirmed for 24 hours expired, audited, in batches (SKIP LOCKED). */
  accessRequestExpiry: { name: 'access-request-expiry', everyMs: 5 * 60 * 1000 },
  /** Expires unrevealed credential handovers (no secret was created) and tells the contact person. */
  handoverExpiry: { name: 'handover-expiry', everyMs: 5 * 60 * 1000 },
  /** Sends due webhook deliveries: per subscription in order, one in flight, retried with backoff for 3 days. */
  webhookDelivery: { name: 'webhook-delivery', everyMs: 1000 },
  /** Streams new audit events to AUDIT_SYSLOG_URL / AUDIT_HEC_URL from each sink's cursor (nothing when none is set). */
  auditStreaming: { name: 'audit-streaming', everyMs: 1000 },
} satisfies Record<string, Schedule>;

export type ScheduleKey = keyof typeof SCHEDULES;

/** The declared schedules with any intervals the worker's options override (tests use short ones). */
export function schedulesWith(intervals: Partial<Record<ScheduleKey, number>> = {}): Record<ScheduleKey, Schedule> {
  const result = { ...SCHEDULES } as Record<ScheduleKey, Schedule>;
  for (const key of Object.keys(intervals) as ScheduleKey[]) {
    const everyMs = intervals[key];
    if (everyMs !== undefined) result[key] = { ...SCHEDULES[key], everyMs };
  }
  return result;
}
