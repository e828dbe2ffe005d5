export enum AuthErrorCode {
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
}

/** Why an admin API request was refused before it reached a handler. */
export class AuthError extends Error {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}
