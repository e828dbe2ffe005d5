import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Every client secret issued since the scannable format starts with this. */
export const CLIENT_SECRET_PREFIX = 'gte_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters: 43 × log2(62) ≈ 256.03 bits. */
const RANDOM_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
/** What a secret scanner looks for (also in docs/operators.md). */
export const CLIENT_SECRET_PATTERN = /\bgte_[0-9A-Za-z]{49}\b/;

/**
 * A new client secret in the scannable format (the model is GitHub's tokens): `gte_`, 43 base62
 * characters of CSPRNG randomness (≥ 256 bits), and a 6-character base62 CRC32 of everything
 * before it, so that scanners and people can tell a Gatehouse secret, and a typo, offline.
 */
export function generateClientSecret(): string {
  let random = '';
  while (random.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 × 62: bytes below it map to base62 without bias.
      if (byte < 248 && random.length < RANDOM_LENGTH) random += ALPHABET[byte % 62];
    }
  }
  return clientSecretFrom(random);
}

/** The secret of 43 random base62 characters: prefix, randomness, checksum (also for generated test data). */
export function clientSecretFrom(random: string): string {
  if (!/^[0-9A-Za-z]{43}$/.test(random)) throw new Error('a client secret takes 43 base62 characters');
  const body = `${CLIENT_SECRET_PREFIX}${random}`;
  return `${body}${checksum(body)}`;
}

function checksum(body: string): string {
  let value = crc32(body);
  let text = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    text = ALPHABET[value % 62] + text;
    value = Math.floor(value / 62);
  }
  return text;
}

export type SecretCheck =
  | { wellFormed: true; hint: string }
  | { wellFormed: false; reason: string };

/** Whether a value is a well-formed Gatehouse secret (offline: prefix, length, alphabet, checksum). */
export function checkClientSecret(value: string): SecretCheck {
  if (!value.startsWith(CLIENT_SECRET_PREFIX)) {
    return { wellFormed: false, reason: `it does not start with ${CLIENT_SECRET_PREFIX} (secrets issued before the scannable format have no prefix and no checksum)` };
  }
  const expected = CLIENT_SECRET_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
  if (value.length !== expected) return { wellFormed: false, reason: `it has ${value.length} characters, not ${expected}` };
  if (!/^[0-9A-Za-z]+$/.test(value.slice(CLIENT_SECRET_PREFIX.length))) {
    return { wellFormed: false, reason: 'it has characters outside 0-9, A-Z, a-z after the prefix' };
  }
  const body = value.slice(0, -CHECKSUM_LENGTH);
  if (checksum(body) !== value.slice(-CHECKSUM_LENGTH)) return { wellFormed: false, reason: 'its checksum does not match (a typo or a truncated copy)' };
  return { wellFormed: true, hint: secretHint(value) };
}

/** The hint shown beside a secret: its first three characters after the prefix (any secret's first three before it). */
export function secretHint(secret: string): string {
  const start = secret.startsWith(CLIENT_SECRET_PREFIX) ? CLIENT_SECRET_PREFIX.length : 0;
  return secret.slice(start, start + 3);
}
