import { describe, expect, it } from 'vitest';
import { isInstant, isPostgresTimestamp, isoDateTime } from './time-values.js';

describe('time values from requests', () => {
  it.each(['2026-11-01', '2026-11-01T14:00', '2026-11-01T14:00:05.123Z', '2024-02-29T23:59:59+14:00', '0001-01-01', '9999-12-31T23:59:59Z'])(
    'takes %s',
    (value) => expect(isoDateTime(value)).toBeInstanceOf(Date),
  );

  it.each([
    '2026-02-31',
    '2025-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-01-01T24:00Z',
    '2026-01-01T10:60Z',
    '2026-01-01T10:00+15:00',
    '0000-01-01',
    '9999-12-31T23:59:59-14:00',
    'yesterday',
    '',
  ])('refuses %s', (value) => expect(isoDateTime(value)).toBeNull());

  it('checks a timestamp as Postgres writes it', () => {
    expect(isPostgresTimestamp('2026-11-01 14:00:05.123456+00')).toBe(true);
    expect(isPostgresTimestamp('2026-11-01 14:00:05+05:30')).toBe(true);
    expect(isPostgresTimestamp('2026-99-99 99:99:99+00')).toBe(false);
    expect(isPostgresTimestamp('2026-11-01T14:00:05Z')).toBe(false);
  });

  it('knows which milliseconds name an instant', () => {
    expect(isInstant(Date.now())).toBe(true);
    expect(isInstant(9e15)).toBe(false);
    expect(isInstant(-9e15)).toBe(false);
    expect(isInstant(Number.NaN)).toBe(false);
    expect(isInstant('1')).toBe(false);
  });
});
