export enum InvitationErrorCode {
  /** No invitation with that id, or no invitation behind that link. */
  NotFound = 'invitation_not_found',
  UserNotFound = 'invitation_user_not_found',
  /** The user's account is disabled: they could not log in to follow the link. */
  UserDisabled = 'invitation_user_disabled',
  UnknownSections = 'invitation_unknown_sections',
  InvalidExpiry = 'invitation_invalid_expiry',
  /** Resend or revoke of an invitation that is no longer pending. */
  NotPending = 'invitation_not_pending',
  Expired = 'invitation_expired',
  Revoked = 'invitation_revoked',
  AlreadyAccepted = 'invitation_already_accepted',
  /** The link belongs to another user. */
  WrongUser = 'invitation_wrong_user',
  /** A resend replaced the link: a newer one was mailed. */
  Superseded = 'invitation_superseded',
  /** The link could set a password for 24 hours after it was sent; that time is over. */
  PasswordWindowClosed = 'invitation_password_window_closed',
  /** The invited user has a password already: they log in to accept. */
  PasswordAlreadySet = 'invitation_password_already_set',
}

export class InvitationError extends Error {
  constructor(
    readonly code: InvitationErrorCode,
    message: string,
    readonly items: string[] = [],
  ) {
    super(message);
    this.name = 'InvitationError';
  }
}
