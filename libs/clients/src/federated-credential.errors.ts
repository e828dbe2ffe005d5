/** Why a federated credential was refused or not found. apps/admin maps each code to HTTP. */
export enum FederatedCredentialErrorCode {
  NotFound = 'federated_credential_not_found',
  NameTaken = 'federated_credential_name_taken',
  TooMany = 'federated_credential_limit',
  Invalid = 'federated_credential_invalid',
}

export class FederatedCredentialError extends Error {
  constructor(
    readonly code: FederatedCredentialErrorCode,
    message: string,
    /** For `federated_credential_invalid`: the field at fault (`issuer`, `claimsMatchingExpression.value`, …). */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'FederatedCredentialError';
  }
}
