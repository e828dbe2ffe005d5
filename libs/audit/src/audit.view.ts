import type { AuditEvent } from './audit-event.entity.js';

/** An event as the API and the console show it: names as they were when it was written, ids beside them. */
export interface AuditEventView {
  id: string;
  occurredAt: string;
  actor: {
    type: string;
    userId: string | null;
    clientId: string | null;
    /** Who acted, as named then (a person's display name, or an ownerless client's); null for the system. */
    name: string | null;
    /** The person's username then. */
    username: string | null;
  };
  action: string;
  targetType: string;
  targetId: string | null;
  /** The target's name when the event was written. */
  targetName: string | null;
  details: Record<string, unknown>;
  requestId: string | null;
  sourceAddress: string | null;
}

/** An audit row as the API shows it (the REST log, the console, webhook bodies, the SIEM stream). */
export function auditEventView(row: AuditEvent): AuditEventView {
  return {
    id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    actor: {
      type: row.actorType,
      userId: row.actorType === 'user' ? row.actorId : null,
      clientId: row.actorClientId,
      name: row.actorName,
      username: row.actorUsername,
    },
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    targetName: row.targetName,
    details: row.details,
    requestId: row.requestId,
    sourceAddress: row.sourceAddress,
  };
}
