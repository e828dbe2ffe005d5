import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Actor } from './actor.js';
import { AuditRepository } from './audit.repository.js';
import { type Page, type PageRequest, decodeCursor, pageSize, toPage } from '@gatehouse/database';
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
}

export interface AuditEventView {
  id: string;
  occurredAt: string;
  actor: { type: string; userId: string | null; clientId: string | null };
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
  requestId: string | null;
}

@Injectable()
export class AuditService {
  constructor(private readonly events: AuditRepository) {}

  /** Records a change inside the transaction (`em`) that makes it; secrets are redacted first. */
  async record(em: EntityManager, record: AuditRecord): Promise<void> {
    await this.events.insert(em, {
      tenantId: record.tenantId,
      actorType: record.actor.type,
      actorId: record.actor.userId ?? record.actor.clientId,
      actorClientId: record.actor.clientId,
      action: record.action,
      targetType: record.targetType,
      targetId: record.targetId,
      details: redactDetails(record.details),
      requestId: record.requestId ?? record.actor.requestId ?? null,
    });
  }

  async list(tenantId: string, filter: AuditFilter): Promise<Page<AuditEventView>> {
    const size = pageSize(filter.limit);
    const rows = await this.events.find({
      tenantId,
      actor: filter.actor,
      action: filter.action,
      target: filter.target,
      since: filter.since,
      after: decodeCursor(filter.cursor),
      take: size + 1,
    });
    return toPage(
      rows,
      size,
      (row) => ({ at: row.occurredAt, id: row.id }),
      (row) => ({
        id: row.id,
        occurredAt: row.occurredAt.toISOString(),
        actor: { type: row.actorType, userId: row.actorType === 'user' ? row.actorId : null, clientId: row.actorClientId },
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        details: row.details,
        requestId: row.requestId,
      }),
    );
  }
}
