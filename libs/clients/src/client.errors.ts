export enum ClientErrorCode {
  NotFound = 'client_not_found',
  OwnerNotFound = 'owner_not_found',
  OwnerPrivileged = 'owner_privileged',
  /** Only an Administrator chooses who owns a client (SECURITY 55). */
  OwnerRequiresAdministrator = 'owner_requires_administrator',
  SecretNotFound = 'secret_not_found',
  UnknownScopes = 'unknown_scopes',
  AdminScopesNotAssignable = 'admin_scopes_not_assignable',
  InvalidSecretExpiry = 'invalid_secret_expiry',
  InvalidCertificate = 'invalid_certificate',
  CertificateExpired = 'certificate_expired',
  CertificateTaken = 'certificate_taken',
  CertificateNotFound = 'certificate_not_found',
  /** allowedSourceRanges that do not parse, or a tokensPerHour out of range. */
  InvalidLimits = 'invalid_client_limits',
}

export class ClientError extends Error {
  constructor(
    readonly code: ClientErrorCode,
    message: string,
    /** For `unknown_scopes`: the scope strings that name nothing. */
    readonly items: string[] = [],
    /** The request field the error is about, when it is not `scopes`. */
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'ClientError';
  }
}
