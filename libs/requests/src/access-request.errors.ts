import type { FieldProblem } from './access-request.rules.js';

export enum AccessRequestErrorCode {
  NotFound = 'access_request_not_found',
  /** One or more fields break the rules; `fields` lists each with its message. */
  Invalid = 'access_request_invalid',
  /** Approve or reject of a request that is not waiting for a decision (decided, unconfirmed, expired). */
  NotSubmitted = 'access_request_not_submitted',
  /** The deciding person's account is disabled. */
  DeciderDisabled = 'access_request_decider_disabled',
  /** Sections or an invitation expiry on a request that asks for no personal account. */
  NoAccountRequested = 'access_request_no_account_requested',
  /** Confirmation links: unknown, already confirmed, past their 24 hours. */
  LinkNotFound = 'access_request_link_not_found',
  AlreadyConfirmed = 'access_request_already_confirmed',
  LinkExpired = 'access_request_link_expired',
}

export class AccessRequestError extends Error {
  constructor(
    readonly code: AccessRequestErrorCode,
    message: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'AccessRequestError';
  }
}

export function invalidRequest(fields: FieldProblem[]): AccessRequestError {
  return new AccessRequestError(
    AccessRequestErrorCode.Invalid,
    `Invalid request: ${fields.map((f) => f.field).join(', ')}`,
    fields,
  );
}
