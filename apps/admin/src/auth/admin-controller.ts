import { Controller, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AdminAuthGuard } from './admin-auth.guard.js';

export const ADMIN_API_PREFIX = 'admin/v1';

/** A controller of the admin REST API: under /admin/v1, behind the bearer-token guard. */
export function AdminController(path: string, tag: string): ClassDecorator {
  return applyDecorators(Controller(`${ADMIN_API_PREFIX}/${path}`), UseGuards(AdminAuthGuard), ApiBearerAuth(), ApiTags(tag));
}
