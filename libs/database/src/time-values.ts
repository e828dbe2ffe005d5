/**
 * Time values that come from a request (a query, a form, a cursor) are checked here before they
 * reach a `Date` or Postgres: every field in its range, the instant between the years 1 and 9999.
 * `new Date()` alone rolls 2026-02-31 over into March and turns 9e15 into an invalid date that a
 * query then fails on (a 500).
 */

/** `2026-11-01`, `2026-11-01T14:00`, `…:05.123Z`, `…+02:00`. */
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(Z|[+-](\d{2}):(\d{2}))?)?$/;
/** A `timestamptz` as Postgres writes it: `2026-11-01 14:00:05.123456+00`. */
const POSTGRES_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?$/;

export const FIRST_INSTANT = new Date('0001-01-01T00:00:00Z').getTime();
export const LAST_INSTANT = new Date('9999-12-31T23:59:59.999Z').getTime();

/** Whether the numbers of a written date and time are each in range (no 31 February, no hour 24, offsets to ±14:59). */
function fieldsInRange(numbers: ReadonlyArray<number | undefined>): boolean {
  const [year, month, day, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = numbers;
  const calendar = new Date(Date.UTC(2000, month! - 1, day!));
  calendar.setUTCFullYear(year!);
  if (calendar.getUTCMonth() !== month! - 1 || calendar.getUTCDate() !== day) return false;
  return hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 14 && offsetMinutes <= 59;
}

function numbersOf(parts: RegExpExecArray, groups: readonly number[]): Array<number | undefined> {
  return groups.map((group) => (parts[group] === undefined ? undefined : Number(parts[group])));
}

/** An ISO 8601 date or date-time that names a real instant, as a `Date`; `null` for anything else. */
export function isoDateTime(value: string): Date | null {
  const parts = ISO_8601.exec(value);
  if (!parts || !fieldsInRange(numbersOf(parts, [1, 2, 3, 4, 5, 6, 8, 9]))) return null;
  const time = new Date(value).getTime();
  return isInstant(time) ? new Date(time) : null;
}

/** A `timestamptz` as Postgres writes it (a cursor carries one) whose every field is in range. */
export function isPostgresTimestamp(value: string): boolean {
  const parts = POSTGRES_TIMESTAMP.exec(value);
  return parts !== null && fieldsInRange(numbersOf(parts, [1, 2, 3, 4, 5, 6, 7, 8]));
}

/** Milliseconds since 1970 that name an instant of the years 1 to 9999. */
export function isInstant(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= FIRST_INSTANT && value <= LAST_INSTANT;
}
