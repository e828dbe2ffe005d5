import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Permission } from '@gatehouse/accounts';
import type { Actor } from '@gatehouse/audit';

/** The person acting through the admin API: their tenant, user id, client and effective permissions. */
export interface AdminPrincipal extends Actor {
  type: 'user';
  tenantId: string;
  userId: string;
  clientId: string;
  permissions: Permission[];
}

export interface RequestWithPrincipal {
  id?: string;
  headers: Record<string, string | string[] | undefined>;
  /** Express' `req.ip` (under `TRUST_PROXY`). */
  ip?: string;
  principal?: AdminPrincipal;
}

/** The principal the guard attached to this request. */
export const Principal = createParamDecorator((_data: unknown, context: ExecutionContext): AdminPrincipal => {
  const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new Error('Principal used on a route without the admin guard');
  return principal;
});
