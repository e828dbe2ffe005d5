import { type Page, type TextSort, encodeTextCursor } from '@gatehouse/database';
import type { User } from './user.entity.js';
import { type UserView, toUserView } from './user.view.js';

/** The value of a user's sort column: what a text-sorted list's cursor holds. */
export function userSortKey(user: Pick<UserView, 'displayName' | 'username' | 'email'>, sort: TextSort): string {
  return sort.by === 'username' ? user.username : sort.by === 'email' ? user.email : user.displayName;
}

/** Given `size + 1` users in a text sort, the page and the cursor of its last row when more follow. */
export function sortedPage(rows: User[], size: number, sort: TextSort): Page<UserView> {
  const items = rows.slice(0, size).map(toUserView);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > size && last ? encodeTextCursor(sort, { key: userSortKey(last, sort), id: last.id }) : null };
}
