import { createHash } from 'node:crypto';
import { errors as joseErrors } from 'jose';
import { selfSignedCertificate } from '@gatehouse/crypto';
import { privateKeyFromDer, publicMembers } from './key-material.js';
import type { SigningKey } from './signing-key.entity.js';
import { AccessTokenError, AccessTokenErrorCode } from './token.errors.js';

/** How long a signing key's self-signed certificate is valid. */
const CERTIFICATE_DAYS = 730;

/** A key as Entra publishes it: the public members, `kid`, `use`, `alg`, and its certificate as `x5c` with `x5t`. */
export function publishedJwk(row: SigningKey): Record<string, unknown> {
  const jwk: Record<string, unknown> = { ...publicMembers(row.publicJwk), kid: row.kid, use: 'sig', alg: row.algorithm };
  if (row.certificateDer) {
    jwk.x5t = createHash('sha1').update(row.certificateDer).digest('base64url');
    jwk.x5c = [row.certificateDer.toString('base64')];
  }
  return jwk;
}

/** The self-signed certificate of a signing key (its `x5c`), signed by the key itself. */
export function keyCertificate(privateKeyDer: Buffer, kid: string): Buffer {
  const now = Date.now();
  return selfSignedCertificate(privateKeyFromDer(privateKeyDer), {
    commonName: `Gatehouse token signing key ${kid}`,
    notBefore: new Date(now - 3_600_000),
    notAfter: new Date(now + CERTIFICATE_DAYS * 86_400_000),
  });
}

export function toAccessTokenError(error: unknown): AccessTokenError {
  if (error instanceof AccessTokenError) return error;
  if (error instanceof joseErrors.JWTExpired)
    return new AccessTokenError(AccessTokenErrorCode.Expired, 'token expired');
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return new AccessTokenError(AccessTokenErrorCode.InvalidClaims, `claim check failed: ${error.claim}`);
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new AccessTokenError(AccessTokenErrorCode.InvalidSignature, 'signature verification failed');
  }
  return new AccessTokenError(AccessTokenErrorCode.Malformed, 'malformed token');
}
