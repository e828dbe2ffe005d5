import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Permission } from '@gatehouse/accounts';

export const REQUIRED_PERMISSION = 'gatehouse:required-permission';

/** The admin permission (a scope of api://gatehouse-admin) a handler needs. Every handler has one. */
export function RequirePermission(permission: Permission): MethodDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    ApiUnauthorizedResponse({ description: 'Missing, invalid or expired bearer token' }),
    ApiForbiddenResponse({ description: `Requires ${permission}` }),
  );
}
