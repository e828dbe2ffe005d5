import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Actor } from './actor.js';
import { AuditRepository } from './audit.repository.js';
import { type PageRequest, type TwoWayPage, twoWayPage } from '@gatehouse/database';
import type { AuditEvent } from './audit-event.entity.js';
import { redactDetails } from './redact.js';

export interface AuditRecord {
  tenantId: string;
  actor: Actor;
  /** `<resource>.<verb>`, e.g. `client.secret.created`. */
  action: string;
  targetType: string;
  targetId: string | null;
  details?: Record<string, unknown>;
  requestId?: string;
}

export interface AuditFilter extends PageRequest {
  actor?: string;
  action?: string;
  target?: string;
  since?: Date;
  /** Events strictly before this instant. */
  until?: Date;
  /** Cursor of the page's newer neighbour: the events just newer than it (`cursor` goes older). */
  before?: string;
}

/** A page of the log with cursors both ways: `prevCursor` (pass as `before`) is `null` on the newest page. */
export type AuditPage = TwoWayPage<AuditEventView>;

/** At most this many events go into one export (the newest of the filter). */
export const AUDIT_EXPORT_LIMIT = 10_000;

export interface AuditEventView {
  id: string;
  occurredAt: string;
  actor: { type: string; userId: string | null; clientId: string | null };
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
  requestId: string | null;
  sourceAddress: string | null;
}

@Injectable()
export class AuditService {
  constructor(private readonly events: AuditRepository) {}

  /** Records a change inside the transaction (`em`) that makes it; secrets are redacted first. */
  async record(em: EntityManager, record: AuditRecord): Promise<void> {
    await this.recordEvent(em, record);
  }

  /** {@link record}, answering the event's id (a test webhook delivery sends that very event). */
  recordEvent(em: EntityManager, record: AuditRecord): Promise<string> {
    return this.events.insert(em, {
      tenantId: record.tenantId,
      actorType: record.actor.type,
      actorId: record.actor.userId ?? record.actor.clientId,
      actorClientId: record.actor.clientId,
      action: record.action,
      targetType: record.targetType,
      targetId: record.targetId,
      details: redactDetails(record.details),
      requestId: record.requestId ?? record.actor.requestId ?? null,
      sourceAddress: record.actor.sourceAddress ?? null,
    });
  }

  /**
   * One page of the tenant's log, newest first: `cursor` goes to older events, `before` to newer
   * ones (a `before` page that reaches the newest event is the first page).
   */
  async list(tenantId: string, filter: AuditFilter): Promise<AuditPage> {
    const query = { tenantId, actor: filter.actor, action: filter.action, target: filter.target, since: filter.since, until: filter.until };
    return twoWayPage(filter, (range) => this.events.find({ ...query, ...range }), position, auditEventView);
  }

  /** The filtered log for an export, newest first, page by page, at most {@link AUDIT_EXPORT_LIMIT} events. */
  async *export(tenantId: string, filter: Omit<AuditFilter, 'cursor' | 'before' | 'limit'>): AsyncGenerator<AuditEventView[]> {
    let cursor: string | undefined;
    for (let sent = 0; sent < AUDIT_EXPORT_LIMIT; ) {
      const page = await this.list(tenantId, { ...filter, cursor, limit: Math.min(200, AUDIT_EXPORT_LIMIT - sent) });
      if (page.items.length) yield page.items;
      sent += page.items.length;
      if (!page.nextCursor) return;
      cursor = page.nextCursor;
    }
  }

  /** Display names of the people among these actor ids (for lists that name who did what). */
  actorNames(tenantId: string, actorIds: readonly (string | null)[]): Promise<Map<string, string>> {
    return this.events.userNames(tenantId, actorIds.filter((id): id is string => id !== null));
  }
}

function position(row: AuditEvent) {
  return { at: row.occurredAt, id: row.id };
}

/** An audit row as the API shows it (the REST log, webhook bodies, the SIEM stream). */
export function auditEventView(row: AuditEvent): AuditEventView {
  return {
    id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    actor: { type: row.actorType, userId: row.actorType === 'user' ? row.actorId : null, clientId: row.actorClientId },
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    details: row.details,
    requestId: row.requestId,
    sourceAddress: row.sourceAddress,
  };
}
