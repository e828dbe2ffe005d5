export enum AccountErrorCode {
  NotFound = 'user_not_found',
  UsernameTaken = 'username_taken',
  RolesRequireAdministrator = 'roles_require_administrator',
  InvalidRole = 'invalid_role',
  /** The target user holds permissions the actor does not: only an Administrator manages them. */
  UserPrivileged = 'user_privileged',
  /** The change would leave the tenant without an active Administrator. */
  LastAdministrator = 'last_administrator',
  /** A generated password is never issued to a person who holds a role (SECURITY 56). */
  GeneratedPasswordForStaff = 'generated_password_for_staff',
  /** Activation / reset links: unknown, already used (or replaced), past their 24 hours. */
  LinkNotFound = 'account_link_not_found',
  LinkUsed = 'account_link_used',
  LinkExpired = 'account_link_expired',
}

export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    message: string,
    /** The request field the refusal is about, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}
