import { describe, expect, it } from 'vitest';
import { InvalidCursorError, decodeCursor, encodeCursor, pageSize, toPage } from './pagination.js';

describe('cursor pagination', () => {
  const id = '0b6f3f5e-8c1a-4a53-9d43-2f0c6f7f1a01';

  it('round-trips a position and refuses anything it did not issue', () => {
    const at = new Date('2026-05-01T10:00:00.123Z');
    expect(decodeCursor(encodeCursor({ at, id }))).toEqual({ at, id });
    expect(decodeCursor(undefined)).toBeUndefined();
    for (const bad of ['garbage', Buffer.from('[1,"x"]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
      expect(() => decodeCursor(bad)).toThrow(InvalidCursorError);
    }
  });

  it('clamps the page size and cuts the extra row into a cursor', () => {
    expect([pageSize(undefined), pageSize(0), pageSize(500), pageSize(10)]).toEqual([50, 1, 200, 10]);
    const rows = [1, 2, 3].map((n) => ({ n, at: new Date(n), id }));
    const page = toPage(rows, 2, (r) => ({ at: r.at, id: r.id }), (r) => r.n);
    expect(page.items).toEqual([1, 2]);
    expect(decodeCursor(page.nextCursor!)).toEqual({ at: new Date(2), id });
    expect(toPage(rows, 3, (r) => ({ at: r.at, id: r.id }), (r) => r.n).nextCursor).toBeNull();
  });
});
