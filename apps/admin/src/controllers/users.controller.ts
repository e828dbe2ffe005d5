import { Body, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { type CreatedUser, type UpdatedUser, type UserView, UserService } from '@gatehouse/accounts';
import type { Page } from '@gatehouse/database';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { UpdatedUserResponse } from '../dto/account-reset.dto.js';
import { UserPage, UserResponse } from '../dto/responses.dto.js';
import { AdminController, ApiJsonBody, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { CreateUserDto, UpdateUserDto, UserQueryDto } from '../dto/users.dto.js';

@AdminController(
  'users',
  'users',
  'Personal user accounts: people who log in to the Web UI, and staff who hold roles. A person who holds a role is managed (changed, disabled, enabled, unlocked, reset) by an Administrator only, and never gets a generated password; an existing account given its first role starts afresh (`accountReset`).',
)
export class UsersController {
  constructor(private readonly users: UserService) {}

  @Post()
  @ApiOperation({ summary: 'Create a user (mails an activation link unless a password is generated)' })
  @ApiJsonBody(CreateUserDto, { username: 'pat.partner', email: 'pat@partner.example', displayName: 'Pat Partner' })
  @ApiProblems(409)
  @RequirePermission('Users.Manage')
  @ApiCreatedResponse({ type: UserResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateUserDto): Promise<CreatedUser> {
    return this.users.create(principal.tenantId, principal, body);
  }

  @Get()
  @ApiOperation({ summary: 'List users (cursor paging, filters)' })
  @RequirePermission('Users.Read')
  @ApiOkResponse({ type: UserPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: UserQueryDto): Promise<Page<UserView>> {
    return this.users.list(principal.tenantId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a user' })
  @RequirePermission('Users.Read')
  @ApiOkResponse({ type: UserResponse })
  get(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<UserView> {
    return this.users.get(principal.tenantId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change a user’s email, display name or roles' })
  @ApiJsonBody(UpdateUserDto, { displayName: 'Pat P. Partner' })
  @ApiProblems(409)
  @RequirePermission('Users.Manage')
  @ApiOkResponse({ type: UpdatedUserResponse })
  update(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Body() body: UpdateUserDto): Promise<UpdatedUser> {
    return this.users.update(principal.tenantId, principal, id, body);
  }

  @Post(':id/disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Disable a user (ends their sessions and their clients’ access)' })
  @ApiProblems(409)
  @RequirePermission('Users.Manage')
  @ApiOkResponse({ type: UserResponse })
  disable(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<UserView> {
    return this.users.disable(principal.tenantId, principal, id);
  }

  @Post(':id/enable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enable a disabled user' })
  @RequirePermission('Users.Manage')
  @ApiOkResponse({ type: UserResponse })
  enable(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<UserView> {
    return this.users.enable(principal.tenantId, principal, id);
  }
}
