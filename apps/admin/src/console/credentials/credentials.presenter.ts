import { Injectable } from '@nestjs/common';
import { CredentialReportService, type CredentialReportFilter, MAX_REPORT_DAYS } from '@gatehouse/clients';
import { InvalidCursorError } from '@gatehouse/database';
import { html, listUrl } from '@gatehouse/views';
import { reportCsv } from '../../controllers/credential-report.csv.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleDownload, ConsoleView } from '../frame/console-responder.js';
import { type CredentialListQuery, EXPIRING_DAYS, KIND_LABELS, credentialList } from './credentials.pages.js';

const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 400) : undefined);

/**
 * The Credentials page: the credential report (the REST `GET /credential-report` use case) with
 * the filters that answer the usual questions — expiring, never used, unused for N days, outside
 * the tenant's credential policy, disabled as stale — kept in the URL.
 */
@Injectable()
export class CredentialsPresenter {
  constructor(private readonly report: CredentialReportService) {}

  async list(who: ConsolePrincipal, raw: Record<string, unknown>): Promise<ConsoleView> {
    const query = queryOf(raw);
    const { filter, error } = filterOf(query);
    const path = `${who.base}/credentials`;
    let page = null;
    let cursorError: string | undefined;
    if (!error) {
      try {
        page = await this.report.page(who.tenantId, { ...filter, cursor: query.after });
      } catch (failure) {
        if (!(failure instanceof InvalidCursorError)) throw failure;
        cursorError = 'This page link is no longer valid: start again from the first page.';
      }
    }
    const { after: _after, ...filters } = query;
    return {
      title: 'Credentials',
      lead: 'Every secret, certificate and federated credential of this tenant: when each was last used, from where, and what is expiring or idle.',
      action: html`<a class="button secondary" href="${listUrl(`${path}/export.csv`, { ...filters })}" download
        >Export CSV<span class="visually-hidden"> of the filtered credentials</span></a
      >`,
      body: credentialList({ base: who.base, query, entries: page?.items ?? [], next: page?.nextCursor ?? null, error: error ?? cursorError }),
      status: error || cursorError ? 400 : 200,
    };
  }

  async export(who: ConsolePrincipal, raw: Record<string, unknown>): Promise<ConsoleView | ConsoleDownload> {
    const query = queryOf(raw);
    const { filter, error } = filterOf(query);
    if (error) return this.list(who, raw);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '');
    return {
      download: {
        filename: `credentials-${who.tenant.slug}-${stamp}.csv`,
        contentType: 'text/csv; charset=utf-8',
        chunks: reportCsv(this.report.export(who.tenantId, filter)),
      },
    };
  }
}

function queryOf(raw: Record<string, unknown>): CredentialListQuery {
  return { show: text(raw.show), days: text(raw.days), kind: text(raw.kind), after: text(raw.after) };
}

/** The filters as the report takes them, or what is wrong with the days. */
function filterOf(query: CredentialListQuery): { filter: CredentialReportFilter; error?: string } {
  const kind = Object.keys(KIND_LABELS).find((k) => k === query.kind) as CredentialReportFilter['kind'];
  const filter: CredentialReportFilter = { kind };
  switch (query.show) {
    case 'expiring':
      return { filter: { ...filter, expiringWithinDays: EXPIRING_DAYS } };
    case 'never-used':
      return { filter: { ...filter, neverUsed: true } };
    case 'outside-policy':
      return { filter: { ...filter, outsidePolicy: true } };
    case 'disabled':
      return { filter: { ...filter, state: 'disabled' } };
    case 'unused': {
      const days = /^\d{1,4}$/.test(query.days ?? '') ? Number(query.days) : NaN;
      if (!(days >= 1 && days <= MAX_REPORT_DAYS)) {
        return { filter, error: `Unused for how many days: type a whole number from 1 to ${MAX_REPORT_DAYS}.` };
      }
      return { filter: { ...filter, unusedForDays: days } };
    }
    default:
      return { filter };
  }
}
