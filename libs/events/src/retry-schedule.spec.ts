import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, nextDelayMs, retryAfterMs } from './retry-schedule.js';

describe('webhook retry schedule', () => {
  it('waits about 5 s, 30 s, 2 min, 10 min, 30 min, then hourly', () => {
    const exact = (failures: number) => nextDelayMs(failures, DEFAULT_RETRY, undefined, () => 0.5);
    expect([1, 2, 3, 4, 5, 6, 7, 40].map(exact)).toEqual([5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 3_600_000, 3_600_000]);
  });

  it('draws each wait within ±20 %', () => {
    expect(nextDelayMs(1, DEFAULT_RETRY, undefined, () => 0)).toBe(4_000);
    expect(nextDelayMs(1, DEFAULT_RETRY, undefined, () => 1)).toBe(6_000);
    expect(nextDelayMs(6, DEFAULT_RETRY, undefined, () => 0.999_999)).toBeLessThanOrEqual(4_320_000);
  });

  it('takes the endpoint\'s Retry-After in seconds or as a date, capped', () => {
    expect(nextDelayMs(1, DEFAULT_RETRY, '120')).toBe(120_000);
    expect(nextDelayMs(1, DEFAULT_RETRY, '999999')).toBe(DEFAULT_RETRY.maxRetryAfterMs);
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(retryAfterMs('Tue, 01 Dec 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
