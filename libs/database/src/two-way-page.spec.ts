import { describe, expect, it } from 'vitest';
import { type CursorPosition, InvalidCursorError } from './pagination.js';
import { type SortableRange, type TextSort, decodeTextCursor, encodeTextCursor, sortablePage } from './sorting.js';
import { type CursorCodec, type KeysetFetch, MILLISECOND_CURSORS, type TwoWayRequest, oneWay, twoWayPage } from './two-way-page.js';

describe('two-way keyset paging', () => {
  // The list 0..11 in order; a row's position is the number itself, its cursor the number's text.
  const list = Array.from({ length: 12 }, (_, n) => n);
  const cursors: CursorCodec<number> = { encode: (n) => String(n), decode: (cursor) => (cursor ? Number(cursor) : undefined) };
  const fetch: KeysetFetch<number, number> = async ({ after, before, take }) =>
    before !== undefined
      ? list.filter((n) => n < before).reverse().slice(0, take)
      : list.filter((n) => after === undefined || n > after).slice(0, take);
  const page = (request: TwoWayRequest) => twoWayPage(request, { fetch, position: (n) => n, cursors }, (n) => n * 10);

  it('walks forward from the start, then back, each page whole and in list order', async () => {
    const first = await page({ limit: 5 });
    expect(first).toEqual({ items: [0, 10, 20, 30, 40], nextCursor: '4', prevCursor: null });
    const second = await page({ limit: 5, cursor: first.nextCursor! });
    expect(second).toEqual({ items: [50, 60, 70, 80, 90], nextCursor: '9', prevCursor: '5' });
    const last = await page({ limit: 5, cursor: second.nextCursor! });
    expect(last).toEqual({ items: [100, 110], nextCursor: null, prevCursor: '10' });
    expect(await page({ limit: 5, before: last.prevCursor! })).toEqual(second);
    expect(await page({ limit: 5, before: second.prevCursor! })).toEqual(first);
  });

  it('a page before that reaches the start is the first page, whole; `cursor` wins over `before`', async () => {
    expect(await page({ limit: 5, before: '3' })).toEqual(await page({ limit: 5 }));
    expect((await page({ limit: 5, cursor: '4', before: '9' })).items).toEqual([50, 60, 70, 80, 90]);
  });

  it('past the end: no rows, and the way back is the cursor itself', async () => {
    expect(await page({ limit: 5, cursor: '11' })).toEqual({ items: [], nextCursor: null, prevCursor: '11' });
  });

  it('a cursor a lenient codec cannot read starts from the top; the timestamp cursors refuse it', async () => {
    const lenient: CursorCodec<number> = { encode: String, decode: (cursor) => (cursor && /^\d+$/.test(cursor) ? Number(cursor) : undefined) };
    const top = await twoWayPage({ limit: 5, before: 'x' }, { fetch, position: (n) => n, cursors: lenient }, (n) => n * 10);
    expect(top).toEqual(await page({ limit: 5 }));
    const strict = { fetch: async () => [], position: (r: CursorPosition) => r, cursors: MILLISECOND_CURSORS };
    await expect(twoWayPage({ before: 'garbage' }, strict, (r) => r)).rejects.toThrow(InvalidCursorError);
    await expect(twoWayPage({ cursor: 'garbage' }, strict, (r) => r)).rejects.toThrow(InvalidCursorError);
    expect(oneWay({ items: [1], nextCursor: null, prevCursor: 'x' })).toEqual({ items: [1], nextCursor: null });
  });
});

describe('a list sortable by its columns', () => {
  // Six rows created a second apart, named backwards; the repository reads them as Postgres would.
  const rows = ['f', 'e', 'd', 'c', 'b', 'a'].map((name, n) => ({
    id: `00000000-0000-4000-8000-00000000000${n}`,
    name,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
  }));
  type Row = (typeof rows)[number];
  const ranges: SortableRange[] = [];
  const read = async (range: SortableRange): Promise<Row[]> => {
    ranges.push(range);
    const value = (r: Row) => (range.sort ? r.name : r.createdAt.toISOString());
    const from = range.sort ? range.afterKey && range.afterKey.key : range.after?.at.toISOString();
    const up = (range.sort?.descending ?? false) === range.backward;
    const sorted = [...rows].sort((a, b) => (value(a) < value(b) ? -1 : 1) * (up ? 1 : -1));
    return sorted.filter((r) => from === undefined || (up ? value(r) > from : value(r) < from)).slice(0, range.take);
  };
  const sortable = { rows: read, at: (r: Row) => ({ at: r.createdAt, id: r.id }), key: (r: Row) => r.name };
  const names = (request: TwoWayRequest, sort?: TextSort) => sortablePage(request, sort, sortable, (r) => r.name);

  it('pages its default order on (time, id) with the timestamp cursors', async () => {
    const first = await names({ limit: 4 });
    expect(first.items).toEqual(['f', 'e', 'd', 'c']);
    const second = await names({ limit: 4, cursor: first.nextCursor! });
    expect(second).toMatchObject({ items: ['b', 'a'], nextCursor: null });
    expect(ranges.at(-1)).toMatchObject({ sort: undefined, after: { at: rows[3]!.createdAt, id: rows[3]!.id }, backward: false });
    expect(await names({ limit: 4, before: second.prevCursor! })).toEqual(first);
  });

  it('pages a column sort on (value, id) with cursors that name the sort, both ways and reversed', async () => {
    const byName: TextSort = { by: 'name', descending: false };
    const first = await names({ limit: 4 }, byName);
    expect(first.items).toEqual(['a', 'b', 'c', 'd']);
    expect(decodeTextCursor(byName, first.nextCursor!)).toEqual({ key: 'd', id: rows[2]!.id });
    const second = await names({ limit: 4, cursor: first.nextCursor! }, byName);
    expect(second.items).toEqual(['e', 'f']);
    const back = await names({ limit: 1, before: second.prevCursor! }, byName);
    expect(back.items).toEqual(['d']);
    expect(ranges.at(-1)).toMatchObject({ sort: byName, afterKey: { key: 'e' }, backward: true, take: 2 });
    const reversed: TextSort = { by: 'name', descending: true };
    expect((await names({ limit: 3 }, reversed)).items).toEqual(['f', 'e', 'd']);
    // A cursor of another order is not one this list issued.
    await expect(names({ cursor: encodeTextCursor(reversed, { key: 'd', id: rows[2]!.id }) }, byName)).rejects.toThrow(InvalidCursorError);
  });
});
