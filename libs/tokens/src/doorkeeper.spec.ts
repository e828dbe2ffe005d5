import { describe, expect, it } from 'vitest';
import { Doorkeeper } from './doorkeeper.js';

const key = (i: number) => `6f1c2a4e-0000-4000-8000-${String(i).padStart(12, '0')}|${i}`;

describe('Doorkeeper', () => {
  it('refuses a key the first time and knows it the second', () => {
    const doorkeeper = new Doorkeeper(3);
    expect(doorkeeper.seenBefore('t1|a')).toBe(false);
    expect(doorkeeper.seenBefore('t1|b')).toBe(false);
    expect(doorkeeper.seenBefore('t1|a')).toBe(true);
    expect(doorkeeper.seenBefore('t1|a')).toBe(true);
  });

  it('forgets everything once it has recorded its capacity, and keeps the key that came then', () => {
    const doorkeeper = new Doorkeeper(3);
    for (const k of ['a', 'b', 'c']) expect(doorkeeper.seenBefore(k)).toBe(false);
    expect(doorkeeper.seenBefore('d')).toBe(false); // full: reset, then d recorded
    expect(doorkeeper.seenBefore('a')).toBe(false);
    expect(doorkeeper.seenBefore('d')).toBe(true);
  });

  it('nearly full at a hundred thousand keys, knows every one of them and lets in under 1.5 % of the keys it never saw', () => {
    const doorkeeper = new Doorkeeper(100_000);
    for (let i = 0; i < 99_000; i++) doorkeeper.seenBefore(key(i));
    let known = 0;
    for (let i = 0; i < 99_000; i++) if (doorkeeper.seenBefore(key(i))) known++;
    expect(known).toBe(99_000);
    // The last thousand the capacity allows before a reset: each unknown one is recorded as it is asked.
    let falsePositives = 0;
    for (let i = 99_000; i < 100_000; i++) if (doorkeeper.seenBefore(key(i))) falsePositives++;
    expect(falsePositives).toBeLessThan(15);
  });
});
