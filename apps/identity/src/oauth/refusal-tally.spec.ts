import { afterEach, describe, expect, it, vi } from 'vitest';
import { RefusalTally } from './refusal-tally.js';

describe('RefusalTally', () => {
  afterEach(() => vi.useRealTimers());

  it('reports the first event at once, then one line per interval with the count, and stops when quiet', () => {
    vi.useFakeTimers();
    const lines: number[] = [];
    const tally = new RefusalTally(10_000, (count) => lines.push(count));
    for (let i = 0; i < 22_511; i++) tally.count();
    expect(lines).toEqual([1]);
    vi.advanceTimersByTime(10_000);
    expect(lines).toEqual([1, 22_510]);
    tally.count();
    vi.advanceTimersByTime(10_000);
    expect(lines).toEqual([1, 22_510, 1]);
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual([1, 22_510, 1]);
    tally.count();
    expect(lines).toEqual([1, 22_510, 1, 1]);
  });
});
