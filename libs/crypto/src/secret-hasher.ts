import { type KeyObject, createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';

/** Bytes of randomness in every client secret and link token (256 bits). */
export const SECRET_BYTES = 32;

/** A fresh secret or link token: 256 random bits, base64url (43 characters). */
export function generateOpaqueSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/**
 * Keyed hash of client secrets and link tokens: HMAC-SHA256 with SECRET_PEPPER. Secrets are
 * high-entropy, so a fast keyed hash is the right tool (a slow password hash would only slow the
 * token endpoint down); without the pepper a database dump gives nothing to brute-force.
 *
 * The pepper is imported once as a KeyObject: given a Buffer, `createHmac` imports the key on
 * every call, which on Node 24 (OpenSSL 3.5) costs 14–19 µs against 2 µs (BENCHMARKS.md).
 */
export class SecretHasher {
  private readonly key: KeyObject;

  constructor(pepper: Buffer) {
    this.key = createSecretKey(pepper);
  }

  hash(secret: string): Buffer {
    return createHmac('sha256', this.key).update(secret, 'utf8').digest();
  }

  /** Constant-time comparison of a presented secret against a stored hash. */
  matches(secret: string, storedHash: Buffer): boolean {
    const candidate = this.hash(secret);
    return storedHash.length === candidate.length && timingSafeEqual(candidate, storedHash);
  }
}
