import { KeyObject, createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import type { SigningAlgorithm } from '@gatehouse/tenants';

export interface GeneratedKey {
  kid: string;
  publicJwk: Record<string, unknown>;
  /** PKCS#8 DER of the private key; the caller encrypts it before it leaves memory. */
  privateKeyDer: Buffer;
}

const PUBLIC_MEMBERS: Record<string, string[]> = { RSA: ['kty', 'n', 'e'], EC: ['kty', 'crv', 'x', 'y'] };

/** A fresh signing key pair: RS256 2048-bit or ES256 (P-256). */
export async function generateSigningKey(alg: SigningAlgorithm): Promise<GeneratedKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
  const kid = randomUUID();
  const pem = await exportPKCS8(privateKey);
  const privateKeyDer = createPrivateKey(pem).export({ format: 'der', type: 'pkcs8' });
  const jwk = await exportJWK(publicKey);
  return { kid, privateKeyDer, publicJwk: { ...publicMembers(jwk as Record<string, unknown>), kid, use: 'sig', alg } };
}

export function privateKeyFromDer(der: Buffer): KeyObject {
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}

export function publicKeyFromJwk(jwk: Record<string, unknown>): KeyObject {
  return createPublicKey({ key: publicMembers(jwk) as never, format: 'jwk' });
}

/** Only the public members of a JWK: never `d`, `p`, `q`, `dp`, `dq`, `qi`. */
export function publicMembers(jwk: Record<string, unknown>): Record<string, unknown> {
  const members = PUBLIC_MEMBERS[String(jwk.kty)];
  if (!members) throw new Error(`unsupported key type ${String(jwk.kty)}`);
  const out: Record<string, unknown> = {};
  for (const name of members) out[name] = jwk[name];
  return out;
}
