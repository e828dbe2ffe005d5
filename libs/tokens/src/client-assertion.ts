import { type KeyObject, constants, verify } from 'node:crypto';
import { printable } from '@gatehouse/logging';
import type { CertificateRow } from './client-credentials.repository.js';
import { verifyEs256 } from './ecdsa-encoding.js';
import { TokenRequestError, TokenRequestErrorCode } from './token-request.errors.js';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Algorithms a client assertion may use: never `none`, never HMAC (a public certificate is no secret). */
export const ASSERTION_ALGORITHMS = ['PS256', 'RS256', 'ES256'] as const;
export type AssertionAlgorithm = (typeof ASSERTION_ALGORITHMS)[number];
/** An assertion is valid for at most this long (exp − (nbf or iat)). */
export const MAX_ASSERTION_LIFETIME_SECONDS = 600;
/** Clock skew allowed between the client and this server. */
export const ASSERTION_SKEW_SECONDS = 300;
const MAX_ASSERTION_LENGTH = 8192;

/** A compact JWS taken apart, not yet verified. */
export interface DecodedJws {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

/** A client assertion signed with a registered certificate, taken apart, not yet verified. */
export interface ParsedAssertion extends DecodedJws {
  kind: 'certificate';
  alg: AssertionAlgorithm;
}

const fail = (code: TokenRequestErrorCode, message: string) => new TokenRequestError(code, message);
const malformed = () => fail(TokenRequestErrorCode.MalformedAssertion, 'JWT token is invalid or malformed.');

/** Splits and decodes a compact JWS (at most 8 KB, three base64url parts, JSON objects), or Entra's 50027. */
export function decodeJws(jwt: string): DecodedJws {
  const parts = jwt.length <= MAX_ASSERTION_LENGTH ? jwt.split('.') : [];
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) throw malformed();
  return {
    header: decodeJson(parts[0]!),
    claims: decodeJson(parts[1]!),
    signingInput: `${parts[0]}.${parts[1]}`,
    signature: Buffer.from(parts[2]!, 'base64url'),
  };
}

/**
 * Whether the assertion is a token another issuer signed (a federated credential's: its `iss` is
 * the issuer's URL) rather than one the client signed with its certificate (`iss` = client id, a UUID).
 */
export function isExternalAssertion(decoded: DecodedJws): boolean {
  const { iss } = decoded.claims;
  return typeof iss === 'string' && /^https?:\/\//i.test(iss);
}

/** A decoded assertion of a certificate: an allowed algorithm, and a certificate named. */
export function certificateAssertion(decoded: DecodedJws): ParsedAssertion {
  const { header } = decoded;
  const alg = header.alg;
  if (typeof alg !== 'string' || !(ASSERTION_ALGORITHMS as readonly string[]).includes(alg)) {
    throw unsupportedAlgorithm(alg, ASSERTION_ALGORITHMS);
  }
  if (!['x5t#S256', 'x5t', 'kid'].some((name) => typeof header[name] === 'string')) {
    throw fail(
      TokenRequestErrorCode.AssertionKeyNotNamed,
      'Invalid JWT token. No certificate SHA-1 thumbprint, certificate SHA-256 thumbprint, nor keyId specified in token header.',
    );
  }
  return { kind: 'certificate', alg: alg as AssertionAlgorithm, ...decoded };
}

/** Entra's AADSTS5002738 for an algorithm outside the allow-list (`none` and HMAC never are in it). */
export function unsupportedAlgorithm(alg: unknown, supported: readonly string[]): TokenRequestError {
  return fail(
    TokenRequestErrorCode.AssertionAlgorithm,
    `Invalid JWT token. '${printable(String(alg), 20)}' is not a supported signature algorithm. Supported signing algorithms are: '${supported.join(',')}'`,
  );
}

function decodeJson(part: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    throw malformed();
  }
  throw malformed();
}

/** The claims every assertion must carry (Entra's AADSTS90014 names the first one missing). */
export function requireClaims(claims: Record<string, unknown>): { iss: string; sub: string; jti: string; exp: number } {
  for (const name of ['iss', 'sub', 'aud', 'exp', 'jti']) {
    if (claims[name] === undefined || claims[name] === null || claims[name] === '') {
      throw fail(
        TokenRequestErrorCode.AssertionMissingClaim,
        `The required field '${name}' is missing from the credential. Ensure that you have all the necessary parameters for the login request.`,
      );
    }
  }
  const { iss, sub, jti, exp } = claims;
  if (
    typeof iss !== 'string' ||
    typeof sub !== 'string' ||
    typeof jti !== 'string' ||
    !PRINTABLE_JTI.test(jti) ||
    !isTime(exp)
  ) {
    throw malformed();
  }
  return { iss, sub, jti, exp };
}

/** A jti is stored as given: up to 256 characters, none of them a control character. */
const PRINTABLE_JTI = /^[^\u0000-\u001f\u007f]{1,256}$/u;

export const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** `aud` must name this token endpoint exactly (one string, or an array of exactly one). */
export function checkAudience(aud: unknown, accepted: readonly string[]): void {
  const value = Array.isArray(aud) && aud.length === 1 ? aud[0] : aud;
  if (typeof value === 'string' && accepted.includes(value)) return;
  throw fail(
    TokenRequestErrorCode.AssertionAudience,
    `Client assertion audience claim does not match Realm issuer. Expected the token endpoint ${accepted[0]}; got '${printable(JSON.stringify(aud) ?? '', 200)}'.`,
  );
}

/**
 * Valid now (± skew) and for at most 10 minutes from `nbf` (or `iat`). Each time claim present is
 * first range-checked: a NumericDate from 1970 to the end of 9999 (an `exp` of 9e15 is no date).
 */
export function checkTimeRange(claims: Record<string, unknown>, exp: number, nowSeconds: number): void {
  for (const name of ['exp', 'nbf', 'iat'] as const) {
    if (claims[name] !== undefined && !isNumericDate(claims[name])) {
      throw fail(
        TokenRequestErrorCode.MalformedAssertion,
        `JWT token is invalid or malformed: the '${name}' claim must be a time in seconds since 1970, up to the year 9999.`,
      );
    }
  }
  const start = isTime(claims.nbf) ? claims.nbf : isTime(claims.iat) ? claims.iat : nowSeconds;
  const tooLong = exp - start > MAX_ASSERTION_LIFETIME_SECONDS;
  const outside = nowSeconds > exp + ASSERTION_SKEW_SECONDS || nowSeconds + ASSERTION_SKEW_SECONDS < start;
  if (!tooLong && !outside) return;
  throw timeRangeError(nowSeconds, start, exp, tooLong ? `an assertion may be valid for ${MAX_ASSERTION_LIFETIME_SECONDS} seconds at most` : null);
}

/** Entra's AADSTS700024, with the times it names and, when that was the fault, the longest lifetime allowed. */
export function timeRangeError(nowSeconds: number, start: number, exp: number, limit: string | null): TokenRequestError {
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  return fail(
    TokenRequestErrorCode.AssertionTimeRange,
    `Client assertion is not within its valid time range. Current time: ${iso(nowSeconds)}, assertion valid from ${iso(start)}, expiry time of assertion ${iso(exp)}` +
      (limit ? `; ${limit}.` : '.'),
  );
}

/** 9999-12-31T23:59:59Z: the last second a four-digit year (and every date library) can name. */
const LAST_NUMERIC_DATE = 253_402_300_799;

const isNumericDate = (value: unknown): value is number => isTime(value) && value >= 0 && value <= LAST_NUMERIC_DATE;

/** The registered certificate the header names: `x5t#S256`, else `x5t`, else `kid` (key id, thumbprint or either x5t). */
export function namedCertificate(
  header: Record<string, unknown>,
  certificates: CertificateRow[],
): CertificateRow | undefined {
  const s256 = header['x5t#S256'];
  if (typeof s256 === 'string') return certificates.find((c) => c.x5tS256 === base64url(s256));
  const x5t = header.x5t;
  if (typeof x5t === 'string') return certificates.find((c) => c.x5t === base64url(x5t));
  const kid = String(header.kid);
  return certificates.find(
    (c) => c.keyId === kid.toLowerCase() || c.thumbprint === kid.toUpperCase() || c.x5t === kid || c.x5tS256 === kid,
  );
}

/** Some clients (MSAL Python) send the thumbprints padded, or in plain base64: compare them in base64url. */
function base64url(value: string): string {
  return value.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** The JWS signature with the certificate's key, under the one algorithm that fits its key type. */
export function signatureVerifies(assertion: ParsedAssertion, key: KeyObject): boolean {
  const data = Buffer.from(assertion.signingInput);
  switch (assertion.alg) {
    case 'RS256':
      return key.asymmetricKeyType === 'rsa' && verify('sha256', data, key, assertion.signature);
    case 'PS256':
      return (
        key.asymmetricKeyType === 'rsa' &&
        verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, assertion.signature)
      );
    case 'ES256':
      return (
        key.asymmetricKeyType === 'ec' &&
        assertion.signature.length === 64 &&
        verifyEs256(data, key, assertion.signature)
      );
  }
}
