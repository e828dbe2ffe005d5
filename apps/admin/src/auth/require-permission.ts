import { SetMetadata, applyDecorators } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import type { Permission } from '@gatehouse/accounts';

export const REQUIRED_PERMISSION = 'gatehouse:required-permission';

/** Names the permission in the operation's OpenAPI description, whatever order the decorators run in. */
function describePermission(permission: Permission): MethodDecorator {
  return (_target, _key, descriptor) => {
    const previous = (Reflect.getMetadata(DECORATORS.API_OPERATION, descriptor.value as object) ?? {}) as Record<string, unknown>;
    const description = `Requires the ${permission} permission.`;
    Reflect.defineMetadata(DECORATORS.API_OPERATION, { ...previous, description }, descriptor.value as object);
    return descriptor;
  };
}

/**
 * The admin permission (a scope of api://gatehouse-admin) a handler needs. Every handler has one.
 * Its 401 and 403 answers are declared for every operation in the OpenAPI document (openapi.ts).
 */
export function RequirePermission(permission: Permission): MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_PERMISSION, permission), describePermission(permission));
}
