import { SetMetadata, applyDecorators } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import type { Permission } from '@gatehouse/accounts';

export const REQUIRED_PERMISSION = 'gatehouse:required-permission';

/**
 * Names the permission in the operation's OpenAPI description, after the operation's own words
 * when it has some (put `@RequirePermission` above `@ApiOperation` for those: it then runs last).
 */
function describePermission(permission: Permission): MethodDecorator {
  return (_target, _key, descriptor) => {
    const previous = (Reflect.getMetadata(DECORATORS.API_OPERATION, descriptor.value as object) ?? {}) as Record<string, unknown>;
    const own = typeof previous.description === 'string' ? `${previous.description} ` : '';
    const description = `${own}Requires the ${permission} permission.`;
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
