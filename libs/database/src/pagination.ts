import { isInstant } from './time-values.js';

/** One page of a list: `nextCursor` is opaque and `null` on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Keyset position: the sort timestamp (milliseconds precision) and the row id. */
export interface CursorPosition {
  at: Date;
  id: string;
}

export class InvalidCursorError extends Error {
  readonly code = 'invalid_cursor';
  constructor() {
    super('The cursor is not one this API issued.');
    this.name = 'InvalidCursorError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A cursor's time is a row's: whole milliseconds of a real instant, or not a cursor this API issued. */
const isCursorTime = (value: unknown): value is number => Number.isSafeInteger(value) && isInstant(value);

/**
 * The sort key of a keyset-paged list: the timestamp at the cursor's millisecond precision. Taken
 * in UTC so that the expression is immutable and an index can hold it (`date_trunc` of a
 * `timestamptz` depends on the connection's TimeZone setting); the order is the same.
 */
export function keysetKey(column: string): string {
  return `date_trunc('milliseconds', ${column} AT TIME ZONE 'UTC')`;
}

/** The rows after (`>`, ascending lists) or before (`<`, newest first) the cursor's `:at`, `:id`. */
export function keysetCondition(column: string, idColumn: string, direction: '>' | '<'): string {
  return `(${keysetKey(column)}, ${idColumn}) ${direction} ((:at)::timestamptz AT TIME ZONE 'UTC', :id)`;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.at.getTime(), position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): CursorPosition | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && isCursorTime(parsed[0]) && typeof parsed[1] === 'string') {
      if (UUID.test(parsed[1])) return { at: new Date(parsed[0] as number), id: parsed[1] };
    }
  } catch {
    throw new InvalidCursorError();
  }
  throw new InvalidCursorError();
}

export function pageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE_SIZE);
}

/** Given `size + 1` rows fetched, the page and the cursor of its last row when more follow. */
export function toPage<R, T>(rows: R[], size: number, position: (row: R) => CursorPosition, map: (row: R) => T): Page<T> {
  const more = rows.length > size;
  const items = more ? rows.slice(0, size) : rows;
  const last = items[items.length - 1];
  return { items: items.map(map), nextCursor: more && last ? encodeCursor(position(last)) : null };
}
