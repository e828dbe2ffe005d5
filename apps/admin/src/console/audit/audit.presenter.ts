import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { type AuditEventView, AuditService, AUDIT_EXPORT_LIMIT } from '@gatehouse/audit';
import { csvLine, html, listUrl } from '@gatehouse/views';
import { AuditQueryDto } from '../../dto/tenant-audit.dto.js';
import { parseInput, queryField } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleDownload, ConsoleView } from '../frame/console-responder.js';
import { type AuditFilters, actorText, auditPage } from './audit.pages.js';

const FILTERS = ['actor', 'action', 'target', 'since', 'until'] as const;
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/;
const CSV_HEADER = ['time_utc', 'actor', 'actor_user_id', 'actor_client_id', 'action', 'target_type', 'target_id', 'source_address', 'request_id'];

/** A time typed without a zone is UTC (the page says so); `2026-11-01 14:00` works like `…T14:00`. */
function asUtc(value: string): string {
  return LOCAL_TIME.test(value) ? `${value.replace(' ', 'T')}Z` : value;
}

function filtersOf(req: Request): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of FILTERS) filters[name] = queryField(req, name).trim() || undefined;
  return filters;
}

/**
 * The Audit page group (`Audit.Read`): the tenant's log filtered by actor, action, target and time,
 * paged both ways, and its CSV export: the same `AuditService.list` as `GET /admin/v1/audit-events`.
 */
@Injectable()
export class AuditPresenter {
  constructor(private readonly audit: AuditService) {}

  private async query(req: Request, filters: AuditFilters, paging: boolean) {
    const raw: Record<string, string | undefined> = { ...filters, since: filters.since && asUtc(filters.since), until: filters.until && asUtc(filters.until) };
    if (paging) {
      raw.cursor = queryField(req, 'cursor') || undefined;
      raw.before = raw.cursor ? undefined : queryField(req, 'before') || undefined;
    }
    return parseInput(AuditQueryDto, raw, { since: 'From', until: 'Before' });
  }

  async list(who: ConsolePrincipal, req: Request): Promise<ConsoleView> {
    const path = `${who.base}/audit`;
    const filters = filtersOf(req);
    const { value, errors } = await this.query(req, filters, true);
    const failed = Object.keys(errors).length > 0;
    const page = failed ? null : await this.audit.list(who.tenantId, value);
    const names = page ? await this.audit.actorNames(who.tenantId, page.items.map((e) => e.actor.userId)) : new Map<string, string>();
    return {
      title: 'Audit',
      lead: 'Every change in this tenant: who did it, when, to what, and from where. Times in UTC (your local time beside it).',
      action: html`<a class="button secondary" href="${listUrl(`${path}/export.csv`, { ...filters })}" download
        >Export CSV<span class="visually-hidden"> of the filtered events (the newest ${AUDIT_EXPORT_LIMIT.toLocaleString('en')})</span></a
      >`,
      body: auditPage({ path, filters, errors, page, names }),
      status: failed ? 400 : 200,
    };
  }

  /** The filtered log as CSV (the newest {@link AUDIT_EXPORT_LIMIT} events), streamed page by page. */
  async export(who: ConsolePrincipal, req: Request): Promise<ConsoleView | ConsoleDownload> {
    const filters = filtersOf(req);
    const { value, errors } = await this.query(req, filters, false);
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

  private async *csv(tenantId: string, filter: AuditQueryDto): AsyncGenerator<string> {
    yield csvLine(CSV_HEADER);
    for await (const events of this.audit.export(tenantId, filter)) {
      const names = await this.audit.actorNames(tenantId, events.map((e) => e.actor.userId));
      yield events.map((e) => csvLine(row(e, names))).join('');
    }
  }
}

function row(e: AuditEventView, names: ReadonlyMap<string, string>): (string | null)[] {
  return [e.occurredAt, actorText(e, names), e.actor.userId, e.actor.clientId, e.action, e.targetType, e.targetId, e.sourceAddress, e.requestId];
}
