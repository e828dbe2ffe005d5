export enum ApiErrorCode {
  NotFound = 'api_not_found',
  IdentifierTaken = 'api_identifier_taken',
  IdentifierReserved = 'api_identifier_reserved',
  IdentifierInvalid = 'api_identifier_invalid',
  ScopeTaken = 'api_scope_taken',
  ScopeInvalid = 'api_scope_invalid',
  BuiltInImmutable = 'api_built_in_immutable',
}

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
