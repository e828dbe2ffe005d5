/** Why a token request was refused. apps/identity maps each code to the Entra-shaped HTTP answer. */
export enum TokenRequestErrorCode {
  MissingParameter = 'missing_parameter',
  MalformedRequest = 'malformed_request',
  MethodNotAllowed = 'method_not_allowed',
  UnsupportedResponseType = 'unsupported_response_type',
  UnknownTenant = 'unknown_tenant',
  UnsupportedGrantType = 'unsupported_grant_type',
  InvalidScope = 'invalid_scope',
  /** The resource names no API of the tenant (Entra's AADSTS500011). */
  InvalidResource = 'invalid_resource',
  /** A scope other than `{resource}/.default` where the tenant allows only that (Entra's AADSTS1002012). */
  DefaultScopeOnly = 'default_scope_only',
  MultipleResources = 'multiple_resources',
  UnknownClient = 'unknown_client',
  InvalidSecret = 'invalid_secret',
  ExpiredSecret = 'expired_secret',
  DisabledClient = 'disabled_client',
  UnauthorizedClient = 'unauthorized_client',
  TooManyFailures = 'too_many_failures',
  /** Neither client_secret nor client_assertion (nor Basic). */
  MissingCredential = 'missing_credential',
  MalformedAssertion = 'malformed_assertion',
  AssertionMissingClaim = 'assertion_missing_claim',
  AssertionAlgorithm = 'assertion_algorithm',
  AssertionKeyNotNamed = 'assertion_key_not_named',
  AssertionTimeRange = 'assertion_time_range',
  AssertionClientMismatch = 'assertion_client_mismatch',
  AssertionAudience = 'assertion_audience',
  AssertionSignature = 'assertion_signature',
  AssertionReplayed = 'assertion_replayed',
  CertificateExpired = 'certificate_expired',
  /** No federated credential of the client names the external token's issuer (AADSTS700211). */
  FederatedIssuer = 'federated_issuer',
  /** The issuer's credentials name none of the token's audiences (AADSTS700212). */
  FederatedAudience = 'federated_audience',
  /** The issuer's credentials match not the token's subject (AADSTS700213). */
  FederatedSubject = 'federated_subject',
  /** Issuer, audience and subject each match some credential, but no one credential all three (AADSTS70021). */
  FederatedNoMatch = 'federated_no_match',
  /** The issuer publishes no key that fits the token's header (AADSTS7000272). */
  FederatedKeyNotFound = 'federated_key_not_found',
  /** The issuer's discovery document or keys could not be read (AADSTS50166). */
  FederatedIssuerUnavailable = 'federated_issuer_unavailable',
  /** The request comes from outside the client's allowed source ranges (Conditional Access, AADSTS53003). */
  SourceNotAllowed = 'source_not_allowed',
  /** The client has had its tokens per hour (429 with Retry-After). */
  QuotaExceeded = 'quota_exceeded',
}

export interface TokenRequestErrorDetails {
  /** Client authentication used HTTP Basic: the 401 carries `WWW-Authenticate: Basic`. */
  basic?: boolean;
  retryAfterSeconds?: number;
  clientId?: string;
  tenantId?: string;
}

export class TokenRequestError extends Error {
  constructor(
    readonly code: TokenRequestErrorCode,
    message: string,
    readonly details: TokenRequestErrorDetails = {},
  ) {
    super(message);
    this.name = 'TokenRequestError';
  }
}
