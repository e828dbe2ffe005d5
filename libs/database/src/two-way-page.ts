import { type CursorPosition, type Page, type PageRequest, decodeCursor, encodeCursor, pageSize } from './pagination.js';

/** A page with cursors both ways: `prevCursor` (pass it as `before`) is `null` on the first page. */
export interface TwoWayPage<T> extends Page<T> {
  prevCursor: string | null;
}

export interface TwoWayRequest extends PageRequest {
  /** Cursor of the page's neighbour towards the start (a `prevCursor`); ignored beside `cursor`. */
  before?: string;
}

/**
 * How a list's keyset position becomes an opaque cursor and back. A list sorted by a column keys
 * on (that column, id) and its cursors name the order (`textCursors` of a `TextSort`); a list in
 * its default order keys on (a timestamp, id).
 */
export interface CursorCodec<P> {
  encode(position: P): string;
  /** The position of a cursor the list issued; of one it did not: `InvalidCursorError`, or `undefined` to start over. */
  decode(cursor: string | undefined): P | undefined;
}

/** The cursors of lists keyed on a timestamp to the millisecond and an id ({@link encodeCursor}). */
export const MILLISECOND_CURSORS: CursorCodec<CursorPosition> = { encode: encodeCursor, decode: decodeCursor };

/**
 * Where a two-way page's rows come from: those following `after` (from the start without it) in
 * list order, or those preceding `before`, nearest first; at most `take`.
 */
export type KeysetFetch<R, P> = (range: { after?: P; before?: P; take: number }) => Promise<R[]>;

/** How a list is paged: its rows, each row's position, its cursors. */
export interface Keyset<R, P> {
  fetch: KeysetFetch<R, P>;
  position: (row: R) => P;
  cursors: CursorCodec<P>;
}

/**
 * Keyset paging in both directions, the one helper of every list paged both ways (the admin API's,
 * the console's). `cursor` continues after a page's last row; `before` walks back from a page's
 * first row. Each page is one index range scan, so the last page costs what the first does. A
 * `before` page that reaches the start of the list is the first page, whole, so the first page
 * always looks the same.
 */
export async function twoWayPage<R, T, P>(request: TwoWayRequest, keyset: Keyset<R, P>, map: (row: R) => T): Promise<TwoWayPage<T>> {
  const { fetch, position, cursors } = keyset;
  const size = pageSize(request.limit);
  const cursorOf = (row: R) => cursors.encode(position(row));
  const before = request.cursor ? undefined : cursors.decode(request.before);
  if (before !== undefined) {
    const preceding = await fetch({ before, take: size + 1 });
    if (preceding.length > size) {
      const rows = preceding.slice(0, size).reverse();
      return { items: rows.map(map), nextCursor: cursorOf(rows[size - 1]!), prevCursor: cursorOf(rows[0]!) };
    }
    return twoWayPage({ limit: request.limit }, keyset, map);
  }
  const after = cursors.decode(request.cursor);
  const rows = await fetch({ after, take: size + 1 });
  const more = rows.length > size;
  const items = more ? rows.slice(0, size) : rows;
  const first = items[0];
  const last = items[items.length - 1];
  return {
    items: items.map(map),
    nextCursor: more && last ? cursorOf(last) : null,
    // Past the end (the rows after the cursor went away): back is before the cursor itself.
    prevCursor: after === undefined ? null : first ? cursorOf(first) : request.cursor!,
  };
}

/** The forward half of a two-way page: what a list paged one way answers. */
export function oneWay<T>({ items, nextCursor }: TwoWayPage<T>): Page<T> {
  return { items, nextCursor };
}
