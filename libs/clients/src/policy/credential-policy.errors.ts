export enum CredentialPolicyErrorCode {
  /** A policy field out of range or unknown (PUT /credential-policy). */
  Invalid = 'invalid_credential_policy',
  /** A new credential breaks the tenant's credential policy. */
  Outside = 'outside_credential_policy',
}

export class CredentialPolicyError extends Error {
  constructor(
    readonly code: CredentialPolicyErrorCode,
    message: string,
    /** The request field the problem is about (a policy field, or `expiresInDays`, `certificate`…). */
    readonly field: string | null = null,
    /** For `outside_credential_policy`: the policy's rule that refused it. */
    readonly rule: string | null = null,
  ) {
    super(message);
    this.name = 'CredentialPolicyError';
  }
}
