import { Body, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type ResetUser, UserCredentialsService, type UserView } from '@gatehouse/accounts';
import { DocService } from '@gatehouse/docs';
import { AdminController, ApiJsonBody } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { UserResponse } from '../dto/responses.dto.js';
import { ResetPasswordDto } from '../dto/user-credentials.dto.js';

/** Credential actions on users and their documentation access (beside UsersController). */
@AdminController('users', 'users')
export class UserCredentialsController {
  constructor(
    private readonly credentials: UserCredentialsService,
    private readonly docs: DocService,
  ) {}

  @Post(':id/unlock')
  @HttpCode(200)
  @ApiOperation({ summary: 'Clear a user’s lockout' })
  @RequirePermission('Users.Manage')
  @ApiOkResponse({ type: UserResponse })
  unlock(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<UserView> {
    return this.credentials.unlock(principal.tenantId, principal, id);
  }

  @Post(':id/reset-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reset a user’s password (a generated one, or a mailed link)' })
  @ApiJsonBody(ResetPasswordDto, { mode: 'activation-link' })
  @RequirePermission('Users.Manage')
  @ApiOkResponse({ type: UserResponse })
  resetPassword(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Body() body: ResetPasswordDto): Promise<ResetUser> {
    return this.credentials.resetPassword(principal.tenantId, principal, id, body.mode);
  }

  @Delete(':id/sections/:slug')
  @HttpCode(204)
  @ApiOperation({ summary: 'Close one documentation section to one user' })
  @RequirePermission('Docs.Manage')
  @ApiNoContentResponse()
  revokeSection(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Param('slug') slug: string): Promise<void> {
    return this.docs.revokeAccess(principal.tenantId, principal, id, slug);
  }
}
