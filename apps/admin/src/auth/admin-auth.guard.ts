import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { decodeJwt } from 'jose';
import { isUUID } from 'class-validator';
import { type Permission, permissionsOf } from '@gatehouse/accounts';
import { AdminCallerRepository } from '@gatehouse/clients';
import { AccessTokenError, SigningKeyService } from '@gatehouse/tokens';
import { AuthError, AuthErrorCode } from './auth.errors.js';
import type { AdminPrincipal, RequestWithPrincipal } from './principal.js';
import { REQUIRED_PERMISSION } from './require-permission.js';

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

function unauthorized(message = 'A valid bearer token for the admin API is required.'): AuthError {
  return new AuthError(AuthErrorCode.Unauthorized, message);
}

/**
 * Admits a request carrying an access token of its tenant's built-in admin API whose client is
 * active and whose owner is active; effective permissions = token roles ∩ the owner's roles now.
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly callers: AdminCallerRepository,
    private readonly keys: SigningKeyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const required = this.reflector.get<Permission | undefined>(REQUIRED_PERMISSION, context.getHandler());
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const principal = await this.authenticate(request);
    if (!required) throw new AuthError(AuthErrorCode.Forbidden, 'This operation declares no permission.');
    if (!principal.permissions.includes(required)) {
      throw new AuthError(AuthErrorCode.Forbidden, `This operation requires the ${required} permission.`);
    }
    request.principal = principal;
    return true;
  }

  private async authenticate(request: RequestWithPrincipal): Promise<AdminPrincipal> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? BEARER.exec(header.trim()) : null;
    if (!match?.[1]) throw unauthorized();
    const jwt = match[1];
    const unverified = unverifiedClaims(jwt);
    // Read before the signature is checked only to know the audience; nothing is trusted until then.
    const caller = await this.callers.find(unverified.tenantId, unverified.clientId);
    if (!caller) throw unauthorized();
    const claims = await this.keys.verifyAccessToken(unverified.tenantId, jwt, { audience: caller.adminAppId }).catch((error: unknown) => {
      if (error instanceof AccessTokenError) throw unauthorized(`The token is not accepted (${error.code}).`);
      throw error;
    });
    const { client, owner } = caller;
    if (!client || client.state !== 'active' || claims.sub !== client.id) throw unauthorized();
    if (!owner || owner.status !== 'active') throw unauthorized();
    const granted = new Set(Array.isArray(claims.roles) ? claims.roles.filter((r): r is string => typeof r === 'string') : []);
    return {
      type: 'user',
      tenantId: unverified.tenantId,
      userId: owner.id,
      clientId: unverified.clientId,
      permissions: permissionsOf(owner.roles).filter((permission) => granted.has(permission)),
      requestId: typeof request.id === 'string' ? request.id : undefined,
      sourceAddress: request.ip,
    };
  }
}

/** The `tid` and `client_id` claims, read without verification only to pick the tenant's keys and the caller's rows. */
function unverifiedClaims(jwt: string): { tenantId: string; clientId: string } {
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(jwt);
  } catch {
    throw unauthorized();
  }
  const { tid, client_id: clientId } = claims;
  if (typeof tid !== 'string' || !isUUID(tid)) throw unauthorized();
  return { tenantId: tid, clientId: typeof clientId === 'string' ? clientId : '' };
}
