import { describe, expect, it } from 'vitest';
import { CLIENT_SECRET_PATTERN, checkClientSecret, generateClientSecret, secretHint } from './client-secret-format.js';

describe('scannable client secrets', () => {
  it('gte_ + 43 base62 + 6-character CRC32; every one checks, differs, and matches the scanning pattern', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const secret = generateClientSecret();
      expect(secret).toMatch(/^gte_[0-9A-Za-z]{49}$/);
      expect(checkClientSecret(secret)).toEqual({ wellFormed: true, hint: secret.slice(4, 7) });
      expect(CLIENT_SECRET_PATTERN.test(`token: "${secret}"`)).toBe(true);
      seen.add(secret);
    }
    expect(seen.size).toBe(200);
  });

  it('the random part is uniform over base62 (no modulo bias visible in 200,000 characters)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4_651; i++) for (const c of generateClientSecret().slice(4, 47)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const mean = (4_651 * 43) / 62;
    for (const count of counts.values()) expect(Math.abs(count - mean) / mean).toBeLessThan(0.12);
  });

  it('refuses a typo, a truncated copy, another prefix or an older secret, saying why', () => {
    const secret = generateClientSecret();
    const typo = `${secret.slice(0, 10)}${secret[10] === 'a' ? 'b' : 'a'}${secret.slice(11)}`;
    expect(checkClientSecret(typo)).toMatchObject({ wellFormed: false, reason: expect.stringContaining('checksum') });
    expect(checkClientSecret(secret.slice(0, -1))).toMatchObject({ wellFormed: false, reason: expect.stringContaining('characters') });
    expect(checkClientSecret(`ghp_${secret.slice(4)}`)).toMatchObject({ wellFormed: false, reason: expect.stringContaining('gte_') });
    expect(checkClientSecret(`${secret.slice(0, 20)}-${secret.slice(21)}`).wellFormed).toBe(false);
    expect(secretHint(secret)).toBe(secret.slice(4, 7));
    expect(secretHint('oldBase64urlSecret')).toBe('old');
  });
});
