import { sign } from 'node:crypto';
import type { Signer } from './signing-key.service.js';

const encodedHeaders = new WeakMap<Signer, string>();

/** The protected header of every access token a key signs, encoded once per key. */
function headerOf(signer: Signer): string {
  let encoded = encodedHeaders.get(signer);
  if (!encoded) {
    encoded = Buffer.from(JSON.stringify({ alg: signer.alg, kid: signer.kid, typ: 'at+jwt' })).toString('base64url');
    encodedHeaders.set(signer, encoded);
  }
  return encoded;
}

/**
 * A compact JWS (RFC 7515) over the claims, signed synchronously with the cached KeyObject:
 * RS256 = RSASSA-PKCS1-v1_5 with SHA-256; ES256 = ECDSA P-256 with SHA-256 in the JOSE (r ‖ s)
 * encoding. The token endpoint's hot path; jose verifies the result in the tests.
 */
export function signCompactJws(signer: Signer, claims: Record<string, unknown>): string {
  const signingInput = `${headerOf(signer)}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const key = signer.alg === 'ES256' ? { key: signer.key, dsaEncoding: 'ieee-p1363' as const } : signer.key;
  return `${signingInput}.${sign('sha256', Buffer.from(signingInput), key).toString('base64url')}`;
}
