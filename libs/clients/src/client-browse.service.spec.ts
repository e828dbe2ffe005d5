import { describe, expect, it } from 'vitest';
import { decodeBrowseCursor, encodeBrowseCursor } from './client-browse.service.js';

describe('the clients list cursor', () => {
  const id = '0b6f3f5e-8c1a-4a53-9d43-2f0c6f7f1a01';

  it('round-trips a position at Postgres precision (microseconds)', () => {
    const position = { at: '2026-11-23 15:30:01.123456+00', id };
    expect(decodeBrowseCursor(encodeBrowseCursor(position))).toEqual(position);
  });

  it('reads anything it did not issue as no cursor (the list starts from the newest)', () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const bad of [
      undefined,
      '',
      'garbage',
      forged(['now()', id]),
      forged(['2026-11-23 15:30:01+00', 'x']),
      forged({ at: 1 }),
    ]) {
      expect(decodeBrowseCursor(bad)).toBeUndefined();
    }
  });
});
