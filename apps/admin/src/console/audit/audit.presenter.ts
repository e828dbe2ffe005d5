import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AuditError, type AuditEventView, AuditService, AUDIT_EXPORT_LIMIT } from '@gatehouse/audit';
import { KNOWN_EVENTS } from '@gatehouse/events';
import { type FieldErrors, csvLine, html, listUrl } from '@gatehouse/views';
import { AuditQueryDto } from '../../dto/tenant-audit.dto.js';
import { parseInput, queryField } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleDownload, ConsoleView } from '../frame/console-responder.js';
import { auditEventPage } from './audit-event.pages.js';
import { actorText, targetText } from './audit-labels.js';
import { type AuditFilters, PERIODS, auditPage } from './audit.pages.js';

const FILTERS = ['actor', 'action', 'target', 'period', 'since', 'until'] as const;
const LABELS = { actor: 'Actor', action: 'Action', target: 'Target', since: 'From', until: 'Before' };
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/;
const CSV_HEADER = [
  'time_utc',
  'actor',
  'actor_username',
  'actor_user_id',
  'actor_client_id',
  'action',
  'target_type',
  'target_name',
  'target_id',
  'source_address',
  'request_id',
];

/** A time typed without a zone is UTC (the page says so); `2026-11-01 14:00` works like `…T14:00`. */
function asUtc(value: string): string {
  return LOCAL_TIME.test(value) ? `${value.replace(' ', 'T')}Z` : value;
}

function filtersOf(req: Request): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of FILTERS) filters[name] = queryField(req, name).trim() || undefined;
  return filters;
}

/** The period preset as a `since`, or the reason it cannot be one. */
function periodStart(filters: AuditFilters): { since?: string; error?: string } {
  if (!filters.period) return { since: filters.since && asUtc(filters.since) };
  const period = PERIODS[filters.period];
  if (!period) return { error: `Period must be one of: ${Object.values(PERIODS).map((p) => p.label).join(', ')}.` };
  if (filters.since) return { error: 'Choose a period or a From time, not both.' };
  return { since: new Date(Date.now() - period.ms).toISOString() };
}

/**
 * The Audit page group (`Audit.Read`): the tenant's log filtered by actor and target (a name or
 * an id), action (from the list of those recorded), a period or a time range, paged both ways;
 * one event in full with what changed; the CSV export. The same `AuditService` as
 * `GET /admin/v1/audit-events`.
 */
@Injectable()
export class AuditPresenter {
  constructor(private readonly audit: AuditService) {}

  private async query(req: Request, filters: AuditFilters, paging: boolean) {
    const { since, error } = periodStart(filters);
    const raw: Record<string, string | undefined> = {
      actor: filters.actor,
      action: filters.action,
      target: filters.target,
      since,
      until: filters.until && asUtc(filters.until),
    };
    if (paging) {
      raw.cursor = queryField(req, 'cursor') || undefined;
      raw.before = raw.cursor ? undefined : queryField(req, 'before') || undefined;
    }
    const parsed = await parseInput(AuditQueryDto, raw, LABELS);
    return { value: parsed.value, errors: error ? { ...parsed.errors, period: error } : parsed.errors };
  }

  async list(who: ConsolePrincipal, req: Request): Promise<ConsoleView> {
    const path = `${who.base}/audit`;
    const filters = filtersOf(req);
    const { value, errors } = await this.query(req, filters, true);
    const page = Object.keys(errors).length ? null : await this.page(who, value, errors);
    return {
      title: 'Audit',
      lead: 'Every change in this tenant: who did it, when, to what, and from where — named as they were then. Times in UTC (your local time beside it).',
      action: html`<a class="button secondary" href="${listUrl(`${path}/export.csv`, { ...filters })}" download
        >Export CSV<span class="visually-hidden"> of the filtered events (the newest ${AUDIT_EXPORT_LIMIT.toLocaleString('en')})</span></a
      >`,
      body: auditPage({ path, filters, errors, page, actions: await this.actions(who.tenantId) }),
      status: page ? 200 : 400,
    };
  }

  async event(who: ConsolePrincipal, id: string): Promise<ConsoleView> {
    const event = await this.audit.get(who.tenantId, id);
    return {
      title: event.action,
      breadcrumbs: [{ label: 'Audit', href: `${who.base}/audit` }, { label: event.action }],
      lead: `${actorText(event)} — ${targetText(event)}`,
      body: auditEventPage(who.base, event),
    };
  }

  /** The filtered log as CSV (the newest {@link AUDIT_EXPORT_LIMIT} events), streamed page by page. */
  async export(who: ConsolePrincipal, req: Request): Promise<ConsoleView | ConsoleDownload> {
    const { value, errors } = await this.query(req, filtersOf(req), false);
    if (Object.keys(errors).length) return { ...(await this.list(who, req)), status: 400 };
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '');
    return {
      download: {
        filename: `audit-${who.tenant.slug}-${stamp}.csv`,
        contentType: 'text/csv; charset=utf-8',
        chunks: this.csv(who.tenantId, value),
      },
    };
  }

  /** Every known action (the webhook catalogue's) and any other this tenant recorded, in order. */
  private async actions(tenantId: string): Promise<string[]> {
    return [...new Set([...KNOWN_EVENTS, ...(await this.audit.actions(tenantId))])].sort();
  }

  /** A page of the log; a name that stands for too much is a message beside its field. */
  private async page(who: ConsolePrincipal, filter: AuditQueryDto, errors: FieldErrors) {
    try {
      return await this.audit.list(who.tenantId, filter);
    } catch (error) {
      if (!(error instanceof AuditError) || !error.field) throw error;
      errors[error.field] = error.message;
      return null;
    }
  }

  private async *csv(tenantId: string, filter: AuditQueryDto): AsyncGenerator<string> {
    yield csvLine(CSV_HEADER);
    for await (const events of this.audit.export(tenantId, filter)) yield events.map((e) => csvLine(row(e))).join('');
  }
}

function row(e: AuditEventView): (string | null)[] {
  return [
    e.occurredAt,
    actorText(e),
    e.actor.username,
    e.actor.userId,
    e.actor.clientId,
    e.action,
    e.targetType,
    e.targetName,
    e.targetId,
    e.sourceAddress,
    e.requestId,
  ];
}
