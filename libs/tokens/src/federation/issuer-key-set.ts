import { type KeyObject, constants, createPublicKey, verify } from 'node:crypto';
import { joseToDer } from 'ecdsa-sig-formatter';
import type { FederatedAlgorithm, FederatedAssertion } from './external-token.js';

/** A public key an issuer publishes, ready to verify with. */
export interface VerificationKey {
  kid: string | undefined;
  /** The JWK's `alg`, when it names one: then only that algorithm may use the key. */
  alg: string | undefined;
  key: KeyObject;
}

/** Keys read from one key set at most: a real issuer publishes a handful. */
const MAX_KEYS = 100;
/** Keys a token without a `kid` is tried against at most. */
const MAX_TRIED = 5;
const CURVES: Record<string, string> = { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' };
const SIGNATURE_LENGTHS: Record<string, number> = { ES256: 64, ES384: 96, ES512: 132 };

/**
 * The signing keys of a JWKS document (RFC 7517): RSA (2048 bits or more) and EC (P-256, P-384,
 * P-521) keys whose `use`, when given, is `sig`; only their public members are read. Keys it cannot
 * use are skipped; a document that is not a key set is an error.
 */
export function keysOfJwks(document: unknown): VerificationKey[] {
  const list = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) throw new Error('the key set has no "keys" array');
  const keys: VerificationKey[] = [];
  for (const jwk of list.slice(0, MAX_KEYS) as Array<Record<string, unknown>>) {
    const key = publicKeyOf(jwk);
    if (key) keys.push({ kid: typeof jwk.kid === 'string' ? jwk.kid : undefined, alg: typeof jwk.alg === 'string' ? jwk.alg : undefined, key });
  }
  return keys;
}

function publicKeyOf(jwk: Record<string, unknown>): KeyObject | null {
  if (!jwk || typeof jwk !== 'object' || (jwk.use !== undefined && jwk.use !== 'sig')) return null;
  const members =
    jwk.kty === 'RSA' ? { kty: 'RSA', n: jwk.n, e: jwk.e } : jwk.kty === 'EC' ? { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y } : null;
  if (!members || Object.values(members).some((v) => typeof v !== 'string')) return null;
  try {
    const key = createPublicKey({ key: members as never, format: 'jwk' });
    const bits = key.asymmetricKeyDetails?.modulusLength;
    return key.asymmetricKeyType === 'rsa' && (bits ?? 0) < 2048 ? null : key;
  } catch {
    return null; // a key the runtime cannot read is no key of this set
  }
}

/** Whether a key may verify this algorithm: its type (and curve), and the JWK's `alg` when it names one. */
function fits(candidate: VerificationKey, alg: FederatedAlgorithm): boolean {
  if (candidate.alg !== undefined && candidate.alg !== alg) return false;
  const { key } = candidate;
  if (alg.startsWith('ES')) return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === CURVES[alg];
  return key.asymmetricKeyType === 'rsa';
}

/** The keys the token's header may mean: by `kid` when it names one, else every key that fits (a few). */
export function candidateKeys(keys: readonly VerificationKey[], assertion: FederatedAssertion): VerificationKey[] {
  const named = assertion.kid === undefined ? keys : keys.filter((k) => k.kid === assertion.kid);
  return named.filter((k) => fits(k, assertion.alg)).slice(0, MAX_TRIED);
}

/** The token's signature checked with one key, under its algorithm. */
export function signatureVerifiesWith(assertion: FederatedAssertion, key: KeyObject): boolean {
  const data = Buffer.from(assertion.signingInput);
  const { alg, signature } = assertion;
  const hash = `sha${alg.slice(2)}`;
  if (alg.startsWith('RS')) return verify(hash, data, key, signature);
  if (alg.startsWith('PS')) {
    return verify(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 }, signature);
  }
  if (signature.length !== SIGNATURE_LENGTHS[alg]) return false;
  return verify(hash, data, key, joseToDer(signature, alg));
}
