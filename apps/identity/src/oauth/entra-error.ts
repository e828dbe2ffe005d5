import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TokenRequestErrorCode } from '@gatehouse/tokens';

export interface EntraError {
  status: number;
  error: string;
  /** The AADSTS number Entra ID uses for the same case. */
  code: number;
}

/** Internal faults: Entra's generic AADSTS50000. */
export const SERVER_ERROR: EntraError = { status: 500, error: 'server_error', code: 50000 };

/** The database cannot be reached: AADSTS90033, "A transient error has occurred. Please try again." */
export const UNAVAILABLE: EntraError = { status: 503, error: 'temporarily_unavailable', code: 90033 };

/**
 * Every token request error code mapped to its HTTP answer, in one place. The `never` check makes
 * this fail to compile when a code is added without an answer.
 */
export function entraErrorFor(code: TokenRequestErrorCode): EntraError {
  switch (code) {
    case TokenRequestErrorCode.MissingParameter:
      return { status: 400, error: 'invalid_request', code: 900144 };
    case TokenRequestErrorCode.MalformedRequest:
      return { status: 400, error: 'invalid_request', code: 90014 };
    case TokenRequestErrorCode.MethodNotAllowed:
      return { status: 405, error: 'invalid_request', code: 900561 };
    case TokenRequestErrorCode.UnsupportedResponseType:
      return { status: 400, error: 'unsupported_response_type', code: 700054 };
    case TokenRequestErrorCode.UnknownTenant:
      return { status: 400, error: 'invalid_request', code: 90002 };
    case TokenRequestErrorCode.UnsupportedGrantType:
      return { status: 400, error: 'unsupported_grant_type', code: 70003 };
    case TokenRequestErrorCode.InvalidScope:
      return { status: 400, error: 'invalid_scope', code: 70011 };
    case TokenRequestErrorCode.InvalidResource:
      return { status: 400, error: 'invalid_resource', code: 500011 };
    case TokenRequestErrorCode.DefaultScopeOnly:
      return { status: 400, error: 'invalid_scope', code: 1002012 };
    case TokenRequestErrorCode.MultipleResources:
      return { status: 400, error: 'invalid_scope', code: 700022 };
    case TokenRequestErrorCode.UnknownClient:
      return { status: 400, error: 'unauthorized_client', code: 700016 };
    case TokenRequestErrorCode.InvalidSecret:
      return { status: 401, error: 'invalid_client', code: 7000215 };
    case TokenRequestErrorCode.ExpiredSecret:
      return { status: 401, error: 'invalid_client', code: 7000222 };
    case TokenRequestErrorCode.DisabledClient:
      return { status: 400, error: 'unauthorized_client', code: 7000112 };
    case TokenRequestErrorCode.UnauthorizedClient:
      // AADSTS501051: "Application is not assigned to a role for the application".
      return { status: 400, error: 'unauthorized_client', code: 501051 };
    case TokenRequestErrorCode.TooManyFailures:
      // AADSTS90055: "There are too many incoming requests" — failures from one address, throttled.
      return { status: 429, error: 'invalid_client', code: 90055 };
    default:
      return assertionErrorFor(code);
  }
}

/** The client-assertion (RFC 7523) and missing-credential cases, as Entra answers them. */
function assertionErrorFor(code: TokenRequestErrorCode): EntraError {
  switch (code) {
    case TokenRequestErrorCode.MissingCredential:
      return { status: 401, error: 'invalid_client', code: 7000218 };
    case TokenRequestErrorCode.MalformedAssertion:
      return { status: 400, error: 'invalid_request', code: 50027 };
    case TokenRequestErrorCode.AssertionMissingClaim:
      return { status: 400, error: 'invalid_request', code: 90014 };
    case TokenRequestErrorCode.AssertionAlgorithm:
      return { status: 401, error: 'invalid_client', code: 5002738 };
    case TokenRequestErrorCode.AssertionKeyNotNamed:
      return { status: 401, error: 'invalid_client', code: 5002723 };
    case TokenRequestErrorCode.AssertionTimeRange:
      return { status: 401, error: 'invalid_client', code: 700024 };
    case TokenRequestErrorCode.AssertionClientMismatch:
      return { status: 401, error: 'invalid_client', code: 700021 };
    case TokenRequestErrorCode.AssertionAudience:
      return { status: 401, error: 'invalid_client', code: 700023 };
    case TokenRequestErrorCode.AssertionSignature:
      return { status: 401, error: 'invalid_client', code: 700027 };
    case TokenRequestErrorCode.AssertionReplayed:
      // AADSTS50013 InvalidAssertion: Entra's code for an assertion refused for another reason.
      return { status: 401, error: 'invalid_client', code: 50013 };
    case TokenRequestErrorCode.CertificateExpired:
      return { status: 401, error: 'invalid_client', code: 7000274 };
    default:
      return federatedErrorFor(code);
  }
}

/** The federated-credential cases (workload identity federation), as Entra answers them. */
function federatedErrorFor(code: TokenRequestErrorCode): EntraError {
  switch (code) {
    case TokenRequestErrorCode.FederatedIssuer:
      return { status: 401, error: 'invalid_client', code: 700211 };
    case TokenRequestErrorCode.FederatedAudience:
      return { status: 401, error: 'invalid_client', code: 700212 };
    case TokenRequestErrorCode.FederatedSubject:
      return { status: 401, error: 'invalid_client', code: 700213 };
    case TokenRequestErrorCode.FederatedNoMatch:
      return { status: 401, error: 'invalid_client', code: 70021 };
    case TokenRequestErrorCode.FederatedKeyNotFound:
      return { status: 401, error: 'invalid_client', code: 7000272 };
    case TokenRequestErrorCode.FederatedIssuerUnavailable:
      return { status: 400, error: 'invalid_request', code: 50166 };
    case TokenRequestErrorCode.SourceNotAllowed:
      // AADSTS53003 BlockedByConditionalAccess, as Entra answers a workload identity blocked by location.
      return { status: 400, error: 'invalid_client', code: 53003 };
    case TokenRequestErrorCode.QuotaExceeded:
      // AADSTS90055: "There are too many incoming requests" — here the client's own quota.
      return { status: 429, error: 'temporarily_unavailable', code: 90055 };
    case TokenRequestErrorCode.MissingCredential:
    case TokenRequestErrorCode.MalformedAssertion:
    case TokenRequestErrorCode.AssertionMissingClaim:
    case TokenRequestErrorCode.AssertionAlgorithm:
    case TokenRequestErrorCode.AssertionKeyNotNamed:
    case TokenRequestErrorCode.AssertionTimeRange:
    case TokenRequestErrorCode.AssertionClientMismatch:
    case TokenRequestErrorCode.AssertionAudience:
    case TokenRequestErrorCode.AssertionSignature:
    case TokenRequestErrorCode.AssertionReplayed:
    case TokenRequestErrorCode.CertificateExpired:
      throw new Error(`token error ${code} is mapped by assertionErrorFor`);
    case TokenRequestErrorCode.MissingParameter:
    case TokenRequestErrorCode.MalformedRequest:
    case TokenRequestErrorCode.MethodNotAllowed:
    case TokenRequestErrorCode.UnsupportedResponseType:
    case TokenRequestErrorCode.UnknownTenant:
    case TokenRequestErrorCode.UnsupportedGrantType:
    case TokenRequestErrorCode.InvalidScope:
    case TokenRequestErrorCode.InvalidResource:
    case TokenRequestErrorCode.DefaultScopeOnly:
    case TokenRequestErrorCode.MultipleResources:
    case TokenRequestErrorCode.UnknownClient:
    case TokenRequestErrorCode.InvalidSecret:
    case TokenRequestErrorCode.ExpiredSecret:
    case TokenRequestErrorCode.DisabledClient:
    case TokenRequestErrorCode.UnauthorizedClient:
    case TokenRequestErrorCode.TooManyFailures:
      throw new Error(`token error ${code} is mapped by entraErrorFor`);
    default: {
      const unmapped: never = code;
      throw new Error(`unmapped token error ${String(unmapped)}`);
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The request's id (pino-http's, or the fast path's) when it is a UUID, else a fresh UUID. */
export function traceIdOf(req: IncomingMessage): string {
  const id: unknown = (req as IncomingMessage & { id?: unknown }).id;
  return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : randomUUID();
}

/** MSAL's `client-request-id` (query or header) when it is a UUID, else a fresh one. */
export function correlationIdOf(req: IncomingMessage): string {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  const fromQuery = query < 0 ? null : new URLSearchParams(url.slice(query + 1)).get('client-request-id');
  for (const candidate of [fromQuery, req.headers['client-request-id']]) {
    if (typeof candidate === 'string' && UUID.test(candidate)) return candidate.toLowerCase();
  }
  return randomUUID();
}

/** `2026-11-22 20:30:00Z`, as Entra writes it. */
export function entraTimestamp(date = new Date()): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

export interface EntraEnvelope {
  error: string;
  error_description: string;
  error_codes: number[];
  timestamp: string;
  trace_id: string;
  correlation_id: string;
  error_uri: string;
}

export function entraEnvelope(
  mapped: EntraError,
  message: string,
  ids: { traceId: string; correlationId: string; publicUrl: string },
): EntraEnvelope {
  const timestamp = entraTimestamp();
  return {
    error: mapped.error,
    error_description:
      `AADSTS${mapped.code}: ${message} Trace ID: ${ids.traceId} Correlation ID: ${ids.correlationId} ` +
      `Timestamp: ${timestamp}`,
    error_codes: [mapped.code],
    timestamp,
    trace_id: ids.traceId,
    correlation_id: ids.correlationId,
    error_uri: `${ids.publicUrl}/error?code=${mapped.code}`,
  };
}
