import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { decodeJwt } from 'jose';
import { isUUID } from 'class-validator';
import { type Permission, UserService, permissionsOf } from '@gatehouse/accounts';
import { ApiService } from '@gatehouse/apis';
import { ClientService } from '@gatehouse/clients';
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
    private readonly apis: ApiService,
    private readonly keys: SigningKeyService,
    private readonly clients: ClientService,
    private readonly users: UserService,
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
    const tenantId = unverifiedTenant(jwt);
    const adminApi = await this.apis.findAdminApi(tenantId);
    if (!adminApi) throw unauthorized();
    const claims = await this.keys.verifyAccessToken(tenantId, jwt, { audience: adminApi.appId }).catch((error: unknown) => {
      if (error instanceof AccessTokenError) throw unauthorized(`The token is not accepted (${error.code}).`);
      throw error;
    });
    const clientId = typeof claims.client_id === 'string' ? claims.client_id : '';
    const client = await this.clients.findByClientId(tenantId, clientId);
    if (!client || client.state !== 'active' || !client.ownerUserId || claims.sub !== client.id) throw unauthorized();
    const owner = await this.users.findById(tenantId, client.ownerUserId);
    if (!owner || owner.status !== 'active') throw unauthorized();
    const granted = new Set(Array.isArray(claims.roles) ? claims.roles.filter((r): r is string => typeof r === 'string') : []);
    return {
      type: 'user',
      tenantId,
      userId: owner.id,
      clientId: client.clientId,
      permissions: permissionsOf(owner.roles).filter((permission) => granted.has(permission)),
      requestId: typeof request.id === 'string' ? request.id : undefined,
      sourceAddress: request.ip,
    };
  }
}

/** The `tid` claim, read without verification only to pick the tenant whose keys verify it. */
function unverifiedTenant(jwt: string): string {
  try {
    const tid = decodeJwt(jwt).tid;
    if (typeof tid === 'string' && isUUID(tid)) return tid;
  } catch {
    throw unauthorized();
  }
  throw unauthorized();
}
