/** Why a tenant operation was refused. Apps map each code to HTTP in one place. */
export enum TenantErrorCode {
  InvalidSlug = 'invalid_slug',
  SlugTaken = 'slug_taken',
  NotFound = 'tenant_not_found',
  InvalidLifetime = 'invalid_lifetime',
  InvalidScopeRequests = 'invalid_scope_requests',
  InvalidAlgorithm = 'invalid_algorithm',
}

export class TenantError extends Error {
  constructor(
    readonly code: TenantErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TenantError';
  }
}
