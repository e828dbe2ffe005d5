/**
 * How a delivery attempt failed, which decides what happens next:
 * - `unreachable`: no SMTP conversation (refused, timed out, DNS, TLS, greeting): retried with
 *   backoff, and woken at once when the SMTP probe finds the server back;
 * - `deferred`: the server answered 4xx (or refused our login: a configuration fault, not the
 *   message's): retried with backoff until the retry window closes;
 * - `rejected`: the server answered 5xx to this message: permanent, abandoned at once.
 */
export type FailureKind = 'unreachable' | 'deferred' | 'rejected';

export interface SmtpFailure {
  kind: FailureKind;
  message: string;
}

const CONNECTION_CODES = new Set([
  'ECONNECTION',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

export function classifySmtpFailure(error: unknown): SmtpFailure {
  const details = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const message = (error instanceof Error ? error.message : String(error)).replace(/[\p{Cc}]+/gu, ' ').trim();
  const responseCode = typeof details.responseCode === 'number' ? details.responseCode : undefined;
  if (details.code === 'EAUTH') return { kind: 'deferred', message };
  if (responseCode !== undefined && responseCode >= 500) return { kind: 'rejected', message };
  if (responseCode !== undefined && responseCode >= 400) return { kind: 'deferred', message };
  if (typeof details.code === 'string' && CONNECTION_CODES.has(details.code)) return { kind: 'unreachable', message };
  return { kind: 'deferred', message };
}
