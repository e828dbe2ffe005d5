import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AccountError, AccountErrorCode } from '@gatehouse/accounts';
import { ApiError, ApiErrorCode } from '@gatehouse/apis';
import { InvalidCursorError } from '@gatehouse/database';
import { ClientError, ClientErrorCode, FederatedCredentialError, FederatedCredentialErrorCode } from '@gatehouse/clients';
import { isDatabaseUnavailable, isUnstorableText } from '@gatehouse/database';
import { DocError, DocErrorCode } from '@gatehouse/docs';
import { InvitationError, InvitationErrorCode } from '@gatehouse/invitations';
import { MailError, MailErrorCode } from '@gatehouse/mail';
import { TenantError, TenantErrorCode } from '@gatehouse/tenants';
import { AuthError, AuthErrorCode } from '../auth/auth.errors.js';
import { accessProblem } from './access-problems.js';
import { auditProblem } from './audit-problems.js';
import { eventProblem } from './event-problems.js';
import { organisationProblem } from './organisation-problems.js';
import { policyProblem } from './policy-problems.js';
import { type Problem, ValidationFailedError, problem, sendProblem } from './problem.js';

function unmapped(code: never): never {
  throw new Error(`unmapped error code ${String(code)}`);
}

export function accountStatus(code: AccountErrorCode): number {
  switch (code) {
    case AccountErrorCode.NotFound:
    case AccountErrorCode.LinkNotFound:
      return 404;
    case AccountErrorCode.LinkUsed:
    case AccountErrorCode.LinkExpired:
      return 410;
    case AccountErrorCode.UsernameTaken:
      return 409;
    case AccountErrorCode.RolesRequireAdministrator:
    case AccountErrorCode.UserPrivileged:
      return 403;
    case AccountErrorCode.LastAdministrator:
      return 409;
    case AccountErrorCode.InvalidRole:
    case AccountErrorCode.GeneratedPasswordForStaff:
      return 400;
    default:
      return unmapped(code);
  }
}

export function apiStatus(code: ApiErrorCode): number {
  switch (code) {
    case ApiErrorCode.NotFound:
      return 404;
    case ApiErrorCode.IdentifierTaken:
    case ApiErrorCode.ScopeTaken:
      return 409;
    case ApiErrorCode.IdentifierReserved:
    case ApiErrorCode.BuiltInImmutable:
      return 409;
    case ApiErrorCode.IdentifierInvalid:
    case ApiErrorCode.ScopeInvalid:
      return 400;
    default:
      return unmapped(code);
  }
}

export function clientStatus(code: ClientErrorCode): number {
  switch (code) {
    case ClientErrorCode.NotFound:
    case ClientErrorCode.SecretNotFound:
    case ClientErrorCode.CertificateNotFound:
      return 404;
    case ClientErrorCode.InvalidCertificate:
    case ClientErrorCode.CertificateExpired:
      return 400;
    case ClientErrorCode.CertificateTaken:
      return 409;
    case ClientErrorCode.OwnerNotFound:
    case ClientErrorCode.UnknownScopes:
    case ClientErrorCode.AdminScopesNotAssignable:
    case ClientErrorCode.InvalidSecretExpiry:
    case ClientErrorCode.InvalidLimits:
      return 400;
    case ClientErrorCode.OwnerPrivileged:
    case ClientErrorCode.OwnerRequiresAdministrator:
      return 403;
    default:
      return unmapped(code);
  }
}

export function federatedStatus(code: FederatedCredentialErrorCode): number {
  switch (code) {
    case FederatedCredentialErrorCode.NotFound:
      return 404;
    case FederatedCredentialErrorCode.NameTaken:
    case FederatedCredentialErrorCode.TooMany:
      return 409;
    case FederatedCredentialErrorCode.Invalid:
      return 400;
    default:
      return unmapped(code);
  }
}

export function tenantStatus(code: TenantErrorCode): number {
  switch (code) {
    case TenantErrorCode.NotFound:
      return 404;
    case TenantErrorCode.SlugTaken:
      return 409;
    case TenantErrorCode.InvalidSlug:
    case TenantErrorCode.InvalidLifetime:
    case TenantErrorCode.InvalidAlgorithm:
    case TenantErrorCode.InvalidScopeRequests:
      return 400;
    default:
      return unmapped(code);
  }
}

export function docStatus(code: DocErrorCode): number {
  switch (code) {
    case DocErrorCode.NotFound:
    case DocErrorCode.AccessNotFound:
      return 404;
    case DocErrorCode.SlugTaken:
      return 409;
    default:
      return unmapped(code);
  }
}

export function invitationStatus(code: InvitationErrorCode): number {
  switch (code) {
    case InvitationErrorCode.NotFound:
      return 404;
    case InvitationErrorCode.UserNotFound:
    case InvitationErrorCode.UnknownSections:
    case InvitationErrorCode.InvalidExpiry:
      return 400;
    case InvitationErrorCode.NotPending:
    case InvitationErrorCode.UserDisabled:
    case InvitationErrorCode.PasswordAlreadySet:
      return 409;
    case InvitationErrorCode.Expired:
    case InvitationErrorCode.Revoked:
    case InvitationErrorCode.AlreadyAccepted:
    case InvitationErrorCode.Superseded:
    case InvitationErrorCode.PasswordWindowClosed:
      return 410;
    case InvitationErrorCode.WrongUser:
      return 403;
    default:
      return unmapped(code);
  }
}

export function mailStatus(code: MailErrorCode): number {
  switch (code) {
    case MailErrorCode.InvalidAddress:
      return 400;
    case MailErrorCode.NotFound:
      return 404;
    case MailErrorCode.NotRetryable:
      return 409;
    default:
      return unmapped(code);
  }
}

export function authStatus(code: AuthErrorCode): number {
  switch (code) {
    case AuthErrorCode.Unauthorized:
      return 401;
    case AuthErrorCode.Forbidden:
      return 403;
    default:
      return unmapped(code);
  }
}

/** The one place where admin API errors become HTTP: `application/problem+json` (RFC 9457). */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('AdminApi');

  catch(error: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    if (res.headersSent) return;
    if (error instanceof AuthError && error.code === AuthErrorCode.Unauthorized) {
      const header = `Bearer error="invalid_token", error_description="${error.message.replace(/["\\]/g, '')}"`;
      return sendProblem(res, problem(401, error.code, error.message), { 'WWW-Authenticate': header });
    }
    if (error instanceof AuthError) {
      const header = 'Bearer error="insufficient_scope"';
      return sendProblem(res, problem(authStatus(error.code), error.code, error.message), { 'WWW-Authenticate': header });
    }
    const answer = this.toProblem(error, req);
    // A client may retry once the database is back; say when to try.
    sendProblem(res, answer, answer.status === 503 ? { 'Retry-After': '5' } : {});
  }

  private toProblem(error: unknown, req: Request): Problem {
    if (error instanceof ValidationFailedError) return problem(400, error.code, error.message, { errors: error.errors });
    if (error instanceof AccountError) {
      const errors = error.field ? { errors: [{ field: error.field, message: error.message }] } : {};
      return problem(accountStatus(error.code), error.code, error.message, errors);
    }
    if (error instanceof ApiError) return problem(apiStatus(error.code), error.code, error.message);
    if (error instanceof TenantError) return problem(tenantStatus(error.code), error.code, error.message);
    if (error instanceof DocError) return problem(docStatus(error.code), error.code, error.message);
    if (error instanceof MailError) return problem(mailStatus(error.code), error.code, error.message);
    if (error instanceof InvitationError) {
      const errors = error.items.map((item) => ({ field: 'sections', message: `unknown section: ${item}` }));
      return problem(invitationStatus(error.code), error.code, error.message, errors.length ? { errors } : {});
    }
    if (error instanceof InvalidCursorError) {
      return problem(400, error.code, error.message, { errors: [{ field: 'cursor', message: error.message }] });
    }
    if (error instanceof ClientError) {
      const errors = error.field
        ? [{ field: error.field, message: error.message }]
        : error.items.map((item) => ({ field: 'scopes', message: `unknown or not assignable: ${item}` }));
      return problem(clientStatus(error.code), error.code, error.message, errors.length ? { errors } : {});
    }
    if (error instanceof FederatedCredentialError) {
      const errors = error.field ? [{ field: error.field, message: error.message }] : [];
      return problem(federatedStatus(error.code), error.code, error.message, errors.length ? { errors } : {});
    }
    if (error instanceof HttpException) return this.httpProblem(error);
    return accessProblem(error) ?? eventProblem(error) ?? organisationProblem(error) ?? auditProblem(error) ?? policyProblem(error) ?? this.unexpected(error, req);
  }

  private httpProblem(error: HttpException): Problem {
    const status = error.getStatus();
    if (status === 404) return problem(404, 'not_found', 'No such resource.');
    if (status === 405) return problem(405, 'method_not_allowed', 'Method not allowed.');
    if (status >= 500) return problem(status, 'server_error', 'The server could not complete the request.');
    return problem(status, 'bad_request', error.message);
  }

  private unexpected(error: unknown, req: Request): Problem {
    const errorId = randomUUID();
    // Name, message and stack only: driver errors carry query parameters, which may hold hashes.
    const logged = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { value: String(error) };
    if (isUnstorableText(error)) {
      return problem(400, 'invalid_characters', 'The request contains a character that cannot be stored (NUL).');
    }
    if (isDatabaseUnavailable(error)) {
      this.logger.error({ errorId, requestId: req.id, error: logged }, 'database unavailable');
      return problem(503, 'service_unavailable', 'The service is temporarily unavailable.', { errorId });
    }
    this.logger.error({ errorId, requestId: req.id, error: logged }, 'unexpected error');
    return problem(500, 'internal_error', `An unexpected error occurred (error id ${errorId}).`, { errorId });
  }
}
