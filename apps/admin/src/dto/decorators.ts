import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsDate, IsInt, Matches, ValidateIf } from 'class-validator';

/** No control characters (CR, LF, NUL, …): text that may end up in a mail header or a log line. */
const SINGLE_LINE = /^[^\p{Cc}\u2028\u2029]*$/u;
const DIGITS = /^\d{1,9}$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

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

/** A query-string timestamp in ISO 8601 (`2026-01-31` or `2026-01-31T10:00:00Z`), nothing looser. */
export function QueryIsoDate(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string' || !ISO_8601.test(value)) return value;
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : date;
    }),
    IsDate({ message: '$property must be an ISO 8601 date-time' }),
  );
}
