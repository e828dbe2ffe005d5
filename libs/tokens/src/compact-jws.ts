import { type KeyObject, type SignKeyObjectInput, sign } from 'node:crypto';
import { derToJose } from 'ecdsa-sig-formatter';
import { CONVERT_DER } from './ecdsa-encoding.js';
import type { Signer } from './signing-key.service.js';
import type { TokenId } from './token-id.js';

/** An access token's `typ`: `JWT` as Entra's (the default), or RFC 9068's `at+jwt` for an API that asks for it. */
export type AccessTokenTyp = 'JWT' | 'at+jwt';

interface PreparedSigner {
  /** The protected header of the tokens the key signs with `typ: JWT`, base64url-encoded. */
  jwtHeader: string;
  /** The same with `typ: at+jwt`. */
  atJwtHeader: string;
  key: KeyObject | SignKeyObjectInput;
  /** ES256 signed in DER, to be converted to JOSE's r ‖ s (see {@link CONVERT_DER}). */
  der: boolean;
}

const prepared = new WeakMap<Signer, PreparedSigner>();

/** What signing with a key needs beyond the payload, worked out once per key. */
function prepare(signer: Signer): PreparedSigner {
  let found = prepared.get(signer);
  if (!found) {
    const encode = (typ: string) =>
      Buffer.from(JSON.stringify({ alg: signer.alg, kid: signer.kid, typ })).toString('base64url');
    found = {
      jwtHeader: encode('JWT'),
      atJwtHeader: encode('at+jwt'),
      key: signer.alg === 'ES256' && !CONVERT_DER ? { key: signer.key, dsaEncoding: 'ieee-p1363' } : signer.key,
      der: signer.alg === 'ES256' && CONVERT_DER,
    };
    prepared.set(signer, found);
  }
  return found;
}

/** The claims that differ in every token, appended after the constant ones in this order. */
export interface VaryingClaims extends TokenId {
  iat: number;
  exp: number;
}

/**
 * The constant claims as the opening of a JSON object (no closing brace), so that each token only
 * appends `iat`, `nbf`, `exp`, `jti` and `uti` (see {@link signAccessToken}).
 */
export function constantClaimsJson(claims: Record<string, unknown>): string {
  const json = JSON.stringify(claims);
  return json.length > 2 ? `${json.slice(0, -1)},` : '{';
}

/**
 * An access token, a compact JWS (RFC 7515) signed synchronously with the cached KeyObject:
 * RS256 = RSASSA-PKCS1-v1_5 with SHA-256; ES256 = ECDSA P-256 with SHA-256 in the JOSE (r ‖ s)
 * encoding. The payload is the constant claims then `iat`, `nbf` (= iat), `exp`, `jti` and `uti`
 * (Entra's token id: the jti's 16 bytes in base64url, see {@link TokenId}); integers, a UUID and base64url, so writing
 * them needs no escaping. The token endpoint's hot path; jose verifies the result in the tests.
 */
export function signAccessToken(signer: Signer, constantClaims: string, varying: VaryingClaims, typ: AccessTokenTyp = 'JWT'): string {
  const payload = `${constantClaims}"iat":${varying.iat},"nbf":${varying.iat},"exp":${varying.exp},"jti":"${varying.jti}","uti":"${varying.uti}"}`;
  const prepared = prepare(signer);
  const signingInput = `${typ === 'JWT' ? prepared.jwtHeader : prepared.atJwtHeader}.${Buffer.from(payload).toString('base64url')}`;
  const signature = sign('sha256', Buffer.from(signingInput), prepared.key);
  return `${signingInput}.${prepared.der ? derToJose(signature, 'ES256') : signature.toString('base64url')}`;
}
