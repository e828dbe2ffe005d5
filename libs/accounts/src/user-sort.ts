import type { TextSort } from '@gatehouse/database';
import type { UserView } from './user.view.js';

/** The value of a user's sort column: what a text-sorted list's cursor holds. */
export function userSortKey(user: Pick<UserView, 'displayName' | 'username' | 'email'>, sort: TextSort): string {
  return sort.by === 'username' ? user.username : sort.by === 'email' ? user.email : user.displayName;
}
