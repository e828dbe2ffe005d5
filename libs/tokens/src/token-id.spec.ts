import { describe, expect, it } from 'vitest';
import { newTokenId } from './token-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newTokenId', () => {
  it('gives a version 4 UUID and its 16 bytes in base64url, all distinct across refills of the random pool', () => {
    const ids = Array.from({ length: 1_000 }, () => newTokenId()); // the pool holds 256: four refills
    for (const { jti, uti } of ids) {
      expect(jti).toMatch(UUID_V4);
      expect(uti).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(uti, 'base64url').toString('hex')).toBe(jti.replace(/-/g, ''));
    }
    expect(new Set(ids.map((id) => id.jti)).size).toBe(ids.length);
  });

  it('draws fresh bytes: no two ids share a half, as a pool reused without a refill would', () => {
    const halves = Array.from({ length: 600 }, () => newTokenId().jti.slice(0, 18));
    expect(new Set(halves).size).toBe(halves.length);
  });
});
