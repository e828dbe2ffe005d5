import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Actor } from './actor.js';
import { AuditError, AuditErrorCode } from './audit.errors.js';
import { AuditLookupRepository } from './audit-lookup.repository.js';
import { AuditRepository } from './audit.repository.js';
import { type AuditEventView, auditEventView } from './audit.view.js';
import { type CursorPosition, type KeysetFetch, MILLISECOND_CURSORS, type PageRequest, type TwoWayPage, twoWayPage } from '@gatehouse/database';
import type { AuditEvent } from './audit-event.entity.js';
import { redactDetails } from './redact.js';

export interface AuditRecord {
  tenantId: string;
  actor: Actor;
  /** `<resource>.<verb>`, e.g. `client.secret.created`. */
  action: string;
  targetType: string;
  targetId: string | null;
  /** The target's name when the caller knows it better than its row (one it just deleted); else read as the event is written. */
  targetName?: string;
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

/** A name in the actor or target filter may stand for at most this many objects. */
export const MAX_NAMED_IN_FILTER = 20;

@Injectable()
export class AuditService {
  constructor(
    private readonly events: AuditRepository,
    private readonly lookup: AuditLookupRepository,
  ) {}

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
      targetName: record.targetName,
      details: redactDetails(record.details),
      requestId: record.requestId ?? record.actor.requestId ?? null,
      sourceAddress: record.actor.sourceAddress ?? null,
    });
  }

  /**
   * One page of the tenant's log, newest first: `cursor` goes to older events, `before` to newer
   * ones (a `before` page that reaches the newest event is the first page). `actor` and `target`
   * are an id, or a name: the events of every person, client (and for targets API or section)
   * so named.
   */
  async list(tenantId: string, filter: AuditFilter): Promise<AuditPage> {
    const [actors, targets] = await Promise.all([
      this.idsOf(tenantId, 'actor', filter.actor),
      this.idsOf(tenantId, 'target', filter.target),
    ]);
    const query = { tenantId, actors, action: filter.action, targets, since: filter.since, until: filter.until };
    const fetch: KeysetFetch<AuditEvent, CursorPosition> = (range) => this.events.find({ ...query, ...range });
    return twoWayPage(filter, { fetch, position, cursors: MILLISECOND_CURSORS }, auditEventView);
  }

  /** One event of the tenant. */
  async get(tenantId: string, id: string): Promise<AuditEventView> {
    const event = UUID.test(id) ? await this.events.findOne(tenantId, id) : null;
    if (!event) throw new AuditError(AuditErrorCode.NotFound, 'No such audit event.');
    return auditEventView(event);
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

  /** The actions recorded in this tenant, in order (a few dozen; read off the action index). */
  actions(tenantId: string): Promise<string[]> {
    return this.events.actionsUnder(tenantId, '');
  }

  /** The value as an id, and the ids of what it names; too many names is a refusal that says so. */
  private async idsOf(tenantId: string, kind: 'actor' | 'target', value: string | undefined): Promise<string[] | undefined> {
    if (!value) return undefined;
    if (UUID.test(value)) return [value];
    const named = await this.lookup.idsNamed(tenantId, kind, value, MAX_NAMED_IN_FILTER + 1);
    if (named.length > MAX_NAMED_IN_FILTER) {
      throw new AuditError(
        AuditErrorCode.FilterTooBroad,
        `More than ${MAX_NAMED_IN_FILTER} ${kind === 'actor' ? 'people and clients' : 'objects'} have "${value}" in their name: type more of it, or an id.`,
        kind,
      );
    }
    return [...new Set([value, ...named])];
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function position(row: AuditEvent) {
  return { at: row.occurredAt, id: row.id };
}
