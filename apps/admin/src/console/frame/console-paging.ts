import { InvalidCursorError, type Page } from '@gatehouse/database';
import { ConsolePageError } from './console.errors.js';

/** One page of a list walked both ways: `previous` is `undefined` on the first page, `next` `null` on the last. */
export interface CursorWindow<T> {
  items: T[];
  previous?: string;
  next: string | null;
}

/**
 * Keyset paging in both directions over a list use case (`fetch(cursor, backward)`): `after`
 * continues past the last row, `before` walks back from the first. Walking back onto the start
 * shows the first page whole, so the first page always looks the same.
 */
export async function cursorWindow<T>(
  fetch: (cursor: string | undefined, backward: boolean) => Promise<Page<T>>,
  cursorOf: (item: T) => string,
  query: { after: string; before: string },
): Promise<CursorWindow<T>> {
  const { after, before } = query;
  const page = await fetch(before || after || undefined, !!before).catch((error: unknown) => {
    if (error instanceof InvalidCursorError) {
      throw new ConsolePageError(400, 'Page not found', 'That page link is not valid. Start again from the first page.');
    }
    throw error;
  });
  if (before && !page.nextCursor) {
    const first = await fetch(undefined, false);
    return { items: first.items, next: first.nextCursor };
  }
  const items = page.items;
  const last = items[items.length - 1];
  return {
    items,
    previous: after || before ? (items[0] ? cursorOf(items[0]) : '') : undefined,
    next: before ? (last ? cursorOf(last) : null) : page.nextCursor,
  };
}

/** A query-string parameter as one string (`''` when absent or repeated). */
export function queryText(query: Record<string, unknown>, name: string): string {
  const value = query[name];
  return typeof value === 'string' ? value : '';
}
