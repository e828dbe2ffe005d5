import { type KeyObject, type SignKeyObjectInput, sign } from 'node:crypto';
import type { Signer } from './signing-key.service.js';

interface PreparedSigner {
  /** The protected header of every access token the key signs, base64url-encoded. */
  header: string;
  key: KeyObject | SignKeyObjectInput;
}

const prepared = new WeakMap<Signer, PreparedSigner>();

/** What signing with a key needs beyond the payload, worked out once per key. */
function prepare(signer: Signer): PreparedSigner {
  let found = prepared.get(signer);
  if (!found) {
    found = {
      header: Buffer.from(JSON.stringify({ alg: signer.alg, kid: signer.kid, typ: 'at+jwt' })).toString('base64url'),
      key: signer.alg === 'ES256' ? { key: signer.key, dsaEncoding: 'ieee-p1363' } : signer.key,
    };
    prepared.set(signer, found);
  }
  return found;
}

/** The claims that differ in every token, appended after the constant ones in this order. */
export interface VaryingClaims {
  iat: number;
  exp: number;
  jti: string;
}

/**
 * The constant claims as the opening of a JSON object (no closing brace), so that each token only
 * appends `iat`, `nbf`, `exp` and `jti` (see {@link signAccessToken}).
 */
export function constantClaimsJson(claims: Record<string, unknown>): string {
  const json = JSON.stringify(claims);
  return json.length > 2 ? `${json.slice(0, -1)},` : '{';
}

/**
 * An access token, a compact JWS (RFC 7515) signed synchronously with the cached KeyObject:
 * RS256 = RSASSA-PKCS1-v1_5 with SHA-256; ES256 = ECDSA P-256 with SHA-256 in the JOSE (r ‖ s)
 * encoding. The payload is the constant claims then `iat`, `nbf` (= iat), `exp`, `jti`; integers
 * and a UUID, so writing them needs no escaping. The token endpoint's hot path; jose verifies the
 * result in the tests.
 */
export function signAccessToken(signer: Signer, constantClaims: string, varying: VaryingClaims): string {
  const payload = `${constantClaims}"iat":${varying.iat},"nbf":${varying.iat},"exp":${varying.exp},"jti":"${varying.jti}"}`;
  const { header, key } = prepare(signer);
  const signingInput = `${header}.${Buffer.from(payload).toString('base64url')}`;
  return `${signingInput}.${sign('sha256', Buffer.from(signingInput), key).toString('base64url')}`;
}
