import { InvalidCursorError, type TwoWayPage, type TwoWayRequest } from '@gatehouse/database';
import { ConsolePageError } from './console.errors.js';

/** One page of a list walked both ways: `previous` is `undefined` on the first page, `next` `null` on the last. */
export interface CursorWindow<T> {
  items: T[];
  previous?: string;
  next: string | null;
}

/**
 * A page of a list use case paged both ways (`twoWayPage` of `@gatehouse/database`) from the
 * console's links: `after` continues past a page's last row, `before` walks back from its first
 * (and wins when both are given). A link the list did not issue is answered with a page the
 * person can start again from.
 */
export async function cursorWindow<T>(
  fetch: (request: TwoWayRequest) => Promise<TwoWayPage<T>>,
  query: { after: string; before: string },
): Promise<CursorWindow<T>> {
  const request = query.before ? { before: query.before } : { cursor: query.after || undefined };
  const page = await fetch(request).catch((error: unknown) => {
    if (error instanceof InvalidCursorError) {
      throw new ConsolePageError(400, 'Page not found', 'That page link is not valid. Start again from the first page.');
    }
    throw error;
  });
  return { items: page.items, previous: page.prevCursor ?? undefined, next: page.nextCursor };
}

/** A query-string parameter as one string (`''` when absent or repeated). */
export function queryText(query: Record<string, unknown>, name: string): string {
  const value = query[name];
  return typeof value === 'string' ? value : '';
}
