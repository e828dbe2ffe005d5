import { QueryFailedError } from 'typeorm';

interface PgDriverError {
  code?: string;
  constraint?: string;
}

/** The name of the violated unique constraint, or `undefined` if the error is something else. */
export function uniqueViolation(error: unknown): string | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const driverError = error.driverError as PgDriverError;
  return driverError.code === '23505' ? (driverError.constraint ?? '') : undefined;
}

/**
 * True for errors that mean "the database cannot be reached right now". TypeORM releases a
 * transaction's connection when the server ends it (a restart); the transaction's next query then
 * fails with QueryRunnerAlreadyReleasedError (or, through the entity manager,
 * QueryRunnerProviderAlreadyReleasedError), which is the same outage seen one step later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? '';
  const message = error instanceof Error ? error.message : '';
  if (error instanceof Error && /^QueryRunner(Provider)?AlreadyReleasedError$/.test(error.name)) return true;
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08006', '08001', '08003'].includes(code) ||
    /Connection terminated|connection timeout|Connection refused|the database system is (starting|shutting) up/i.test(
      message,
    )
  );
}

/** Postgres refused a text value it cannot store (a NUL character, an invalid byte sequence). */
export function isUnstorableText(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const code = (error.driverError as PgDriverError).code;
  return code === '22021' || code === '22P05';
}
