import { Injectable } from '@nestjs/common';
import { type Page, type PageRequest, decodeCursor, pageSize, toPage } from '@gatehouse/database';
import { CredentialReportRepository, type ReportRow } from './credential-report.repository.js';
import { type CredentialReportEntry, type CredentialReportFilter, MAX_REPORT_DAYS } from './credential-report.view.js';

/** Rows per round trip of the CSV export. */
const EXPORT_BATCH = 1000;

/**
 * The credential report (Clients.Read): every secret, certificate and federated credential of the
 * tenant with its client, dates, last use and state. A page for JSON and the console; the whole
 * report batch by batch for CSV, so memory stays flat whatever its size.
 */
@Injectable()
export class CredentialReportService {
  constructor(private readonly report: CredentialReportRepository) {}

  async page(tenantId: string, filter: CredentialReportFilter & PageRequest): Promise<Page<CredentialReportEntry>> {
    checkDays(filter);
    const size = pageSize(filter.limit);
    const rows = await this.report.page(tenantId, filter, decodeCursor(filter.cursor), size + 1);
    return toPage(rows, size, (row) => ({ at: row.position, id: row.id }), entryOf);
  }

  /** The whole report, in batches, in the page order. */
  async *export(tenantId: string, filter: CredentialReportFilter): AsyncGenerator<CredentialReportEntry[]> {
    checkDays(filter);
    let after: { at: Date; id: string } | undefined;
    for (;;) {
      const rows = await this.report.page(tenantId, filter, after, EXPORT_BATCH);
      if (rows.length > 0) yield rows.map(entryOf);
      if (rows.length < EXPORT_BATCH) return;
      const last = rows[rows.length - 1]!;
      after = { at: last.position, id: last.id };
    }
  }
}

/** The adapters validate the days (400 naming the field); here they are only kept in range. */
function checkDays(filter: CredentialReportFilter): void {
  for (const field of ['expiringWithinDays', 'unusedForDays'] as const) {
    const days = filter[field];
    if (days !== undefined) filter[field] = Math.min(Math.max(Math.trunc(days), 0), MAX_REPORT_DAYS);
  }
}

export function entryOf(row: ReportRow): CredentialReportEntry {
  const entry: CredentialReportEntry = {
    clientId: row.client_id,
    clientName: row.client_name,
    kind: row.kind,
    keyId: row.key_id,
    displayName: row.display_name,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    lastUsedFrom: row.last_used_from,
    state: row.state,
    disabledAt: row.disabled_at?.toISOString() ?? null,
  };
  if (row.kind === 'secret') entry.hint = row.detail ?? '';
  if (row.kind === 'certificate') entry.thumbprint = row.detail ?? '';
  if (row.kind === 'federated') {
    entry.issuer = row.detail ?? '';
    entry.subject = row.subject ?? '';
  }
  return entry;
}
