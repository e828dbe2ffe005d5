export enum AccountErrorCode {
  NotFound = 'user_not_found',
  UsernameTaken = 'username_taken',
  RolesRequireAdministrator = 'roles_require_administrator',
  InvalidRole = 'invalid_role',
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
