import { printable } from '@gatehouse/logging';
import { type DecodedJws, isTime, timeRangeError, unsupportedAlgorithm } from '../client-assertion.js';
import { TokenRequestError, TokenRequestErrorCode } from '../token-request.errors.js';

/**
 * Algorithms an external token (a federated credential's) may be signed with: RSA and ECDSA, as
 * issuers publish them. Never `none`, never HMAC: the issuer's key set is public.
 */
export const FEDERATED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'] as const;
export type FederatedAlgorithm = (typeof FEDERATED_ALGORITHMS)[number];

/** An external token may be valid for at most this long (exp − nbf, or − iat): Entra's 24 hours. */
export const MAX_EXTERNAL_LIFETIME_SECONDS = 86_400;
/** Clock skew allowed between the issuer and this server. */
export const EXTERNAL_SKEW_SECONDS = 300;
/** Times beyond the year 9999 are no times (and would not print). */
const LATEST_TIME = 253_402_300_799;

/** A token another issuer signed, sent as `client_assertion`: taken apart, not yet verified. */
export interface FederatedAssertion extends DecodedJws {
  kind: 'federated';
  alg: FederatedAlgorithm;
  kid: string | undefined;
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  /** When the token starts to be valid: `nbf`, else `iat`, else undefined. */
  start: number | undefined;
}

const malformed = () => new TokenRequestError(TokenRequestErrorCode.MalformedAssertion, 'JWT token is invalid or malformed.');

function missing(name: string): TokenRequestError {
  return new TokenRequestError(
    TokenRequestErrorCode.AssertionMissingClaim,
    `The required field '${name}' is missing from the credential. Ensure that you have all the necessary parameters for the login request.`,
  );
}

const isTimeClaim = (value: unknown): value is number => isTime(value) && value >= 0 && value <= LATEST_TIME;

/** The external token's header and claims checked for shape: algorithm, `iss`, `sub`, `aud`, times. */
export function federatedAssertion(decoded: DecodedJws): FederatedAssertion {
  const { header, claims } = decoded;
  if (typeof header.alg !== 'string' || !(FEDERATED_ALGORITHMS as readonly string[]).includes(header.alg)) {
    throw unsupportedAlgorithm(header.alg, FEDERATED_ALGORITHMS);
  }
  for (const name of ['iss', 'sub', 'aud', 'exp']) {
    if (claims[name] === undefined || claims[name] === null || claims[name] === '') throw missing(name);
  }
  const { iss, sub, exp, nbf, iat } = claims;
  const aud = typeof claims.aud === 'string' ? [claims.aud] : claims.aud;
  const audiences = Array.isArray(aud) && aud.length > 0 && aud.length <= 20 && aud.every((a) => typeof a === 'string') ? (aud as string[]) : null;
  const kid = header.kid;
  if (
    typeof iss !== 'string' ||
    typeof sub !== 'string' ||
    audiences === null ||
    !isTimeClaim(exp) ||
    (nbf !== undefined && !isTimeClaim(nbf)) ||
    (iat !== undefined && !isTimeClaim(iat)) ||
    (kid !== undefined && typeof kid !== 'string')
  ) {
    throw malformed();
  }
  const start = nbf !== undefined ? (nbf as number) : (iat as number | undefined);
  return { kind: 'federated', ...decoded, alg: header.alg as FederatedAlgorithm, kid, iss, sub, aud: audiences, exp, start };
}

/** Valid now (± five minutes), and valid for at most 24 hours: else Entra's AADSTS700024. */
export function checkExternalLifetime(assertion: FederatedAssertion, nowSeconds: number): void {
  const { exp, start } = assertion;
  const from = start ?? nowSeconds;
  const tooLong = exp - from > MAX_EXTERNAL_LIFETIME_SECONDS;
  const outside = nowSeconds > exp + EXTERNAL_SKEW_SECONDS || nowSeconds + EXTERNAL_SKEW_SECONDS < from;
  if (!tooLong && !outside) return;
  throw timeRangeError(nowSeconds, from, exp, tooLong ? 'an external token may be valid for 24 hours at most' : null);
}

/** How a refusal names what the token carried: made printable and short. */
export function quoted(value: string | readonly string[]): string {
  return printable(typeof value === 'string' ? value : value.join(' '), 200);
}
