export enum AccountErrorCode {
  NotFound = 'user_not_found',
  UsernameTaken = 'username_taken',
  RolesRequireAdministrator = 'roles_require_administrator',
  InvalidRole = 'invalid_role',
  /** The target user holds permissions the actor does not: only an Administrator manages them. */
  UserPrivileged = 'user_privileged',
  /** The change would leave the tenant without an active Administrator. */
  LastAdministrator = 'last_administrator',
}

export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}
