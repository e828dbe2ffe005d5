export enum StaffErrorCode {
  TenantNotFound = 'staff_tenant_not_found',
  UserNotFound = 'staff_user_not_found',
  /** The username is taken by someone with another email address. */
  UsernameOfAnother = 'staff_username_of_another',
  UserDisabled = 'staff_user_disabled',
  /** Resend or revoke: the person has set up their access already (or was never invited). */
  NotInvited = 'staff_not_invited',
}

/** Why inviting staff or resetting their second factor was refused. */
export class StaffError extends Error {
  constructor(
    readonly code: StaffErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StaffError';
  }
}
