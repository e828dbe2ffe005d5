import { type CursorPosition, InvalidCursorError } from './pagination.js';
import { type CursorCodec, type KeysetFetch, MILLISECOND_CURSORS, type TwoWayPage, type TwoWayRequest, twoWayPage } from './two-way-page.js';

/**
 * A list sorted by one of its text columns ("name", or "-name" for the reverse), keyset-paged on
 * (that column, id). The column's value itself is the cursor's key, compared by Postgres with the
 * column's own collation, so no row is skipped or shown twice between pages, whatever it holds.
 */
export interface TextSort {
  /** The sort's name as the URL carries it, without the `-`. */
  by: string;
  descending: boolean;
}

/** Where a text-sorted page continues: the row's value of the sort column, and its id. */
export interface TextPosition {
  key: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `name` / `-name` → a sort among the allowed names; anything else → `undefined` (the list's default order). */
export function parseTextSort(value: string | undefined, allowed: readonly string[]): TextSort | undefined {
  if (!value) return undefined;
  const descending = value.startsWith('-');
  const by = descending ? value.slice(1) : value;
  return allowed.includes(by) ? { by, descending } : undefined;
}

/** The URL form of a sort: `name` or `-name`. */
export function textSortParam(sort: TextSort): string {
  return `${sort.descending ? '-' : ''}${sort.by}`;
}

/** A cursor of a text-sorted list; it names its sort, so a cursor of another order is refused. */
export function encodeTextCursor(sort: TextSort, position: TextPosition): string {
  return Buffer.from(JSON.stringify(['s', textSortParam(sort), position.key, position.id]), 'utf8').toString('base64url');
}

export function decodeTextCursor(sort: TextSort, cursor: string | undefined): TextPosition | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 4 &&
    parsed[0] === 's' &&
    parsed[1] === textSortParam(sort) &&
    typeof parsed[2] === 'string' &&
    typeof parsed[3] === 'string' &&
    UUID.test(parsed[3])
  ) {
    return { key: parsed[2], id: parsed[3] };
  }
  throw new InvalidCursorError();
}

/** The cursors of a list in a text sort, for `twoWayPage`. */
export function textCursors(sort: TextSort): CursorCodec<TextPosition> {
  return { encode: (position) => encodeTextCursor(sort, position), decode: (cursor) => decodeTextCursor(sort, cursor) };
}

/**
 * The SQL of one page in a text sort: rows after the position in the list's order (or, reading
 * `backward`, before it, nearest first), ordered by the column then the id. `keyParam` and
 * `idParam` are the placeholders the caller binds to the position's key and id.
 */
export function textKeyset(
  column: string,
  idColumn: string,
  sort: TextSort,
  backward: boolean,
  keyParam: string,
  idParam: string,
): { condition: string; direction: 'ASC' | 'DESC' } {
  const ascending = sort.descending === backward;
  return {
    condition: `(${column}, ${idColumn}) ${ascending ? '>' : '<'} (${keyParam}, ${idParam})`,
    direction: ascending ? 'ASC' : 'DESC',
  };
}

/**
 * Where a repository reads one page of a list sortable by its columns: in its default order after
 * a (time, id) position, sorted by a column after a (value, id) one; `backward`: the rows before
 * the position instead, nearest first.
 */
export interface SortableRange {
  sort?: TextSort;
  after?: CursorPosition;
  afterKey?: TextPosition;
  backward: boolean;
  take: number;
}

/** A list sortable by its columns: its rows, a row's time (the default order) and its value of a sort column. */
export interface SortableList<R extends { id: string }> {
  rows(range: SortableRange): Promise<R[]>;
  at(row: R): CursorPosition;
  key(row: R, sort: TextSort): string;
}

/** {@link twoWayPage} of a list in its default order, or in `sort` with cursors that name it. */
export function sortablePage<R extends { id: string }, T>(
  request: TwoWayRequest,
  sort: TextSort | undefined,
  list: SortableList<R>,
  map: (row: R) => T,
): Promise<TwoWayPage<T>> {
  const from =
    <P>(where: (position: P | undefined) => Pick<SortableRange, 'after' | 'afterKey'>): KeysetFetch<R, P> =>
    ({ after, before, take }) =>
      list.rows({ sort, ...where(before ?? after), backward: before !== undefined, take });
  if (sort) {
    const position = (row: R) => ({ key: list.key(row, sort), id: row.id });
    return twoWayPage(request, { fetch: from<TextPosition>((afterKey) => ({ afterKey })), position, cursors: textCursors(sort) }, map);
  }
  return twoWayPage(request, { fetch: from<CursorPosition>((after) => ({ after })), position: (row: R) => list.at(row), cursors: MILLISECOND_CURSORS }, map);
}
