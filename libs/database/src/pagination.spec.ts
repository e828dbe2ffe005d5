import { describe, expect, it } from 'vitest';
import {
  type CursorCodec,
  type CursorPosition,
  InvalidCursorError,
  type KeysetFetch,
  type TwoWayRequest,
  decodeCursor,
  encodeCursor,
  oneWay,
  pageSize,
  toPage,
  twoWayPage,
} from './pagination.js';

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

describe('two-way keyset paging', () => {
  // A list of 0..11 in order; the position is the number itself, its cursor the number's text.
  const list = Array.from({ length: 12 }, (_, n) => n);
  const cursors: CursorCodec<number> = {
    encode: (n) => String(n),
    decode: (cursor) => (cursor ? Number(cursor) : undefined),
  };
  const fetch: KeysetFetch<number, number> = async ({ after, before, take }) =>
    before !== undefined
      ? list.filter((n) => n < before).reverse().slice(0, take)
      : list.filter((n) => after === undefined || n > after).slice(0, take);
  const page = (request: TwoWayRequest) => twoWayPage(request, fetch, (n) => n, (n) => n * 10, cursors);

  it('walks forward from the start, then back, each page whole and in list order', async () => {
    const first = await page({ limit: 5 });
    expect(first).toEqual({ items: [0, 10, 20, 30, 40], nextCursor: '4', prevCursor: null });
    const second = await page({ limit: 5, cursor: first.nextCursor! });
    expect(second).toEqual({ items: [50, 60, 70, 80, 90], nextCursor: '9', prevCursor: '5' });
    const last = await page({ limit: 5, cursor: second.nextCursor! });
    expect(last).toEqual({ items: [100, 110], nextCursor: null, prevCursor: '10' });
    expect(await page({ limit: 5, before: last.prevCursor! })).toEqual(second);
  });

  it('a page before that reaches the start is the first page, whole; `cursor` wins over `before`', async () => {
    expect(await page({ limit: 5, before: '3' })).toEqual(await page({ limit: 5 }));
    expect((await page({ limit: 5, cursor: '4', before: '9' })).items).toEqual([50, 60, 70, 80, 90]);
  });

  it('past the end: no rows, and the way back is the cursor itself', async () => {
    expect(await page({ limit: 5, cursor: '11' })).toEqual({ items: [], nextCursor: null, prevCursor: '11' });
  });

  it('keeps the default cursors of a timestamp and an id, refusing one it did not issue', async () => {
    await expect(twoWayPage({ before: 'garbage' }, async () => [], (r: CursorPosition) => r, (r) => r)).rejects.toThrow(InvalidCursorError);
    expect(oneWay({ items: [1], nextCursor: null, prevCursor: 'x' })).toEqual({ items: [1], nextCursor: null });
  });
});
