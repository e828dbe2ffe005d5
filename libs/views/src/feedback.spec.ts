import { describe, expect, it } from 'vitest';
import { expiryTag, wrongCodeRefusal } from './feedback.js';

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

describe('expiryTag', () => {
  const now = new Date('2026-12-01T14:00:00Z');
  const words = { future: 'link expires', past: 'link expired' };
  const text = (at: string, w?: typeof words) => String(expiryTag(new Date(at), w, now)).replace(/<[^>]+>/g, '');

  it('a past deadline reads in the past tense, never "expires … ago"', () => {
    expect(text('2026-12-01T13:59:00Z', words)).toBe('link expired 1 minute ago (2026-12-01 13:59 UTC)');
    expect(text('2026-12-04T14:00:00Z', words)).toBe('link expires in 3 days (2026-12-04 14:00 UTC)');
    expect(text('2026-11-30T14:00:00Z')).toBe('expired 24 hours ago (2026-11-30 14:00 UTC)');
    expect(text('2026-12-02T14:00:00Z')).toBe('in 24 hours (2026-12-02 14:00 UTC)');
  });
});
