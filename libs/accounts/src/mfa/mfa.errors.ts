export enum MfaErrorCode {
  UserNotFound = 'mfa_user_not_found',
  AlreadyEnrolled = 'mfa_already_enrolled',
  NoPendingEnrolment = 'mfa_no_pending_enrolment',
  NotEnrolled = 'mfa_not_enrolled',
  /** Only an Administrator resets another person's second factor. */
  NotPermitted = 'mfa_not_permitted',
}

export class MfaError extends Error {
  constructor(
    readonly code: MfaErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MfaError';
  }
}
