import type { CredentialReportEntry } from '@gatehouse/clients';
import { csvLine } from '@gatehouse/views';

export const REPORT_CSV_HEADER = [
  'clientId',
  'clientName',
  'kind',
  'keyId',
  'displayName',
  'hint',
  'thumbprint',
  'issuer',
  'subject',
  'createdAt',
  'expiresAt',
  'lastUsedAt',
  'lastUsedFrom',
  'state',
  'disabledAt',
] as const;

/** One report entry as a CSV line, in {@link REPORT_CSV_HEADER}'s order. */
export function reportCsvLine(entry: CredentialReportEntry): string {
  return csvLine(REPORT_CSV_HEADER.map((field) => entry[field] ?? ''));
}

/** The report as CSV text, batch by batch as the report service reads it (REST and console alike). */
export async function* reportCsv(batches: AsyncIterable<CredentialReportEntry[]>): AsyncGenerator<string> {
  yield csvLine(REPORT_CSV_HEADER);
  for await (const entries of batches) yield entries.map(reportCsvLine).join('');
}
