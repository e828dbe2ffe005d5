import { randomFillSync } from 'node:crypto';

/** One random 128-bit token id under its two names: `jti` (a version 4 UUID) and Entra's `uti`. */
export interface TokenId {
  jti: string;
  /** The jti's 16 bytes in base64url (22 characters). */
  uti: string;
}

const IDS_PER_FILL = 256;
const pool = Buffer.alloc(16 * IDS_PER_FILL);
let next = pool.length;

/**
 * A fresh token id. The random bytes come from the CSPRNG 4 KiB at a time (as `randomUUID` takes
 * its own), and both names are written from the same 16 bytes: on the token endpoint's hot path
 * this replaced a UUID followed by a hex round trip to get its bytes back for the `uti`.
 */
export function newTokenId(): TokenId {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const at = next;
  next += 16;
  pool[at + 6] = (pool[at + 6]! & 0x0f) | 0x40; // version 4
  pool[at + 8] = (pool[at + 8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = pool.toString('hex', at, at + 16);
  return {
    jti: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    uti: pool.toString('base64url', at, at + 16),
  };
}
