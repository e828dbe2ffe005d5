import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsDate, IsInt, Matches, ValidateIf } from 'class-validator';
import { isoDateTime } from '@gatehouse/database';

/** No control characters (CR, LF, NUL, …): text that may end up in a mail header or a log line. */
const SINGLE_LINE = /^[^\p{Cc}\u2028\u2029]*$/u;
const DIGITS = /^\d{1,9}$/;

/**
 * The field may be left out, and then nothing about it is checked. Unlike class-validator's
 * `IsOptional`, `null` is not "left out": it is checked like any value, and refused unless a rule
 * accepts it (a null email reaching the database as NOT NULL was a 500).
 */
export function Optional(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

export function SingleLine(options: { each?: boolean } = {}): PropertyDecorator {
  return Matches(SINGLE_LINE, { ...options, message: '$property must be one line without control characters' });
}

/** A query-string integer: digits only ("1e2", "0x10", " 5" stay strings and fail validation). */
export function QueryInt(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && DIGITS.test(value) ? Number(value) : value)),
    IsInt({ message: '$property must be an integer' }),
  );
}

/** A query-string timestamp in ISO 8601 (`2026-01-31` or `2026-01-31T10:00:00Z`) that names a real instant, nothing looser. */
export function QueryIsoDate(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? (isoDateTime(value) ?? value) : value)),
    IsDate({ message: '$property must be a date that exists, in ISO 8601 (2026-11-01 or 2026-11-01T14:00:00Z)' }),
  );
}
