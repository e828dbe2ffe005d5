import { AuditError, AuditErrorCode } from '@gatehouse/audit';
import { type Problem, problem } from './problem.js';

function unmapped(code: never): never {
  throw new Error(`unmapped error code ${String(code)}`);
}

export function auditStatus(code: AuditErrorCode): number {
  switch (code) {
    case AuditErrorCode.NotFound:
      return 404;
    case AuditErrorCode.FilterTooBroad:
      return 400;
    default:
      return unmapped(code);
  }
}

/** The problem for an audit error (naming the filter it is about); `undefined` for any other error. */
export function auditProblem(error: unknown): Problem | undefined {
  if (!(error instanceof AuditError)) return undefined;
  const extra = error.field ? { errors: [{ field: error.field, message: error.message }] } : {};
  return problem(auditStatus(error.code), error.code, error.message, extra);
}
