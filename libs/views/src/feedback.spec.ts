import { describe, expect, it } from 'vitest';
import { wrongCodeRefusal } from './feedback.js';

describe('wrongCodeRefusal', () => {
  const now = new Date('2026-12-01T14:00:00Z');

  it('names the end of a lock and the ways on: wait, a recovery code, an Administrator', () => {
    const text = wrongCodeRefusal(new Date('2026-12-01T14:15:00Z'), now);
    expect(text).toContain('locked for 15 minutes (until 2026-12-01 14:15 UTC)');
    expect(text).toContain('recovery codes');
    expect(text).toContain('ask an Administrator to reset your second factor');
  });

  it('asks only to wait a moment during the pause of a few seconds after early wrong codes', () => {
    expect(wrongCodeRefusal(new Date('2026-12-01T14:00:01Z'), now)).toMatch(/^That code did not work.*Wait a moment/);
  });
});
