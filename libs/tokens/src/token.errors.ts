/** Why an access token was not accepted by {@link SigningKeyService.verifyAccessToken}. */
export enum AccessTokenErrorCode {
  Malformed = 'malformed',
  UnknownKey = 'unknown_key',
  InvalidSignature = 'invalid_signature',
  Expired = 'expired',
  InvalidClaims = 'invalid_claims',
}

export class AccessTokenError extends Error {
  constructor(
    readonly code: AccessTokenErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AccessTokenError';
  }
}
