import { HandoverError, HandoverErrorCode } from '@gatehouse/handovers';
import { AccessRequestError, AccessRequestErrorCode } from '@gatehouse/requests';
import { type Problem, problem } from './problem.js';

function unmapped(code: never): never {
  throw new Error(`unmapped error code ${String(code)}`);
}

export function accessRequestStatus(code: AccessRequestErrorCode): number {
  switch (code) {
    case AccessRequestErrorCode.NotFound:
    case AccessRequestErrorCode.LinkNotFound:
      return 404;
    case AccessRequestErrorCode.Invalid:
    case AccessRequestErrorCode.NoAccountRequested:
      return 400;
    case AccessRequestErrorCode.DeciderDisabled:
      return 403;
    case AccessRequestErrorCode.NotSubmitted:
      return 409;
    case AccessRequestErrorCode.AlreadyConfirmed:
    case AccessRequestErrorCode.LinkExpired:
      return 410;
    default:
      return unmapped(code);
  }
}

export function handoverStatus(code: HandoverErrorCode): number {
  switch (code) {
    case HandoverErrorCode.NotFound:
      return 404;
    case HandoverErrorCode.InvalidExpiry:
    case HandoverErrorCode.NoRecipient:
    case HandoverErrorCode.InvalidRecipient:
      return 400;
    case HandoverErrorCode.ClientDisabled:
    case HandoverErrorCode.NotRevocable:
    case HandoverErrorCode.NotResendable:
      return 409;
    case HandoverErrorCode.AlreadyRevealed:
    case HandoverErrorCode.Expired:
    case HandoverErrorCode.Revoked:
      return 410;
    default:
      return unmapped(code);
  }
}

/** The problem for an error of access requests or handovers; `undefined` for any other error. */
export function accessProblem(error: unknown): Problem | undefined {
  if (error instanceof AccessRequestError) {
    const extra = error.fields.length ? { errors: error.fields } : {};
    return problem(accessRequestStatus(error.code), error.code, error.message, extra);
  }
  if (error instanceof HandoverError) return problem(handoverStatus(error.code), error.code, error.message);
  return undefined;
}
