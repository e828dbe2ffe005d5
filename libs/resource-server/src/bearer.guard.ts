import { type CanActivate, type ExecutionContext, HttpException, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { JWTPayload } from 'jose';
import { AccessTokenValidator, BearerError, bearerToken, challenge, requireRoles } from './token-validator.js';

const ROLES = 'gatehouse-resource-server:roles';

/** The roles a route needs (every one of them); a route without it needs a valid token only. */
export const RequireRoles = (...roles: string[]) => SetMetadata(ROLES, roles);

export interface AuthenticatedRequest extends Request {
  auth?: JWTPayload;
}

/** Answers a refusal as RFC 6750 asks: status, `WWW-Authenticate`, and a small JSON body. */
export function sendBearerError(res: Response, realm: string, error: BearerError): void {
  res
    .status(error.status)
    .setHeader('WWW-Authenticate', challenge(realm, error))
    .setHeader('Cache-Control', 'no-store')
    .json({ error: error.error ?? 'unauthorized', error_description: error.message });
}

/**
 * NestJS: a global guard — `app.useGlobalGuards(new BearerGuard(validator, app.get(Reflector), 'orders'))`
 * — that admits requests with a valid token holding the roles of `@RequireRoles(…)`; the claims are
 * on `req.auth`.
 */
@Injectable()
export class BearerGuard implements CanActivate {
  constructor(
    private readonly validator: AccessTokenValidator,
    private readonly reflector: Reflector,
    private readonly realm = 'api',
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const roles =
      this.reflector.getAllAndOverride<string[] | undefined>(ROLES, [context.getHandler(), context.getClass()]) ?? [];
    try {
      req.auth = await this.validator.validate(bearerToken(req.headers.authorization));
      requireRoles(req.auth, roles);
      return true;
    } catch (error) {
      if (!(error instanceof BearerError)) throw error;
      const res = context.switchToHttp().getResponse<Response>();
      res.setHeader('WWW-Authenticate', challenge(this.realm, error)).setHeader('Cache-Control', 'no-store');
      throw new HttpException({ error: error.error ?? 'unauthorized', error_description: error.message }, error.status);
    }
  }
}

/** Express: `app.get('/orders', bearer(validator, ['Orders.Read']), handler)`. */
export function bearer(validator: AccessTokenValidator, roles: string[] = [], realm = 'api'): RequestHandler {
  return (req: AuthenticatedRequest, res: Response, next: NextFunction) => {
    Promise.resolve()
      .then(() => validator.validate(bearerToken(req.headers.authorization)))
      .then((claims) => {
        requireRoles(claims, roles);
        req.auth = claims;
        next();
      })
      .catch((error: unknown) => (error instanceof BearerError ? sendBearerError(res, realm, error) : next(error)));
  };
}
