import { Controller, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ProblemResponse } from '../dto/problem.dto.js';
import { AdminAuthGuard } from './admin-auth.guard.js';

export const ADMIN_API_PREFIX = 'admin/v1';

/** Every tag of the admin API with its description, in the order controllers declared them. */
const TAGS = new Map<string, string>();

export function adminApiTags(): ReadonlyMap<string, string> {
  return TAGS;
}

/**
 * A controller of the admin REST API: under /admin/v1, behind the bearer-token guard, its
 * operations grouped under `tag` (described in the OpenAPI document by `description`).
 */
export function AdminController(path: string, tag: string, description?: string): ClassDecorator {
  if (description || !TAGS.has(tag)) TAGS.set(tag, description ?? `Operations on ${tag}.`);
  return applyDecorators(Controller(`${ADMIN_API_PREFIX}/${path}`), UseGuards(AdminAuthGuard), ApiBearerAuth(), ApiTags(tag));
}

const CONFLICT: Record<number, string> = {
  409: 'Conflicts with the current state (taken name, last Administrator, not pending, …)',
  410: 'Gone',
};

/** Refusals specific to one operation, beyond those every operation may give (see openapi.ts). */
export function ApiProblems(...statuses: Array<409 | 410>): MethodDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: CONFLICT[status],
        content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemResponse) } } },
      }),
    ),
  );
}

/** A JSON request body of `type`, with an example for the documentation. */
export function ApiJsonBody(type: new () => object, example: Record<string, unknown>): MethodDecorator {
  return ApiBody({ type, examples: { example: { summary: 'A typical body', value: example } } });
}
