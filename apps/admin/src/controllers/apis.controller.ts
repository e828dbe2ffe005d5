import { Body, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { type ApiScopeView, ApiService, type ApiView } from '@gatehouse/apis';
import type { Page } from '@gatehouse/database';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiPage, ProtectedApiResponse, ApiScopeResponse } from '../dto/responses.dto.js';
import { AdminController, ApiJsonBody, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { CreateApiDto, CreateScopeDto, UpdateApiDto } from '../dto/apis.dto.js';
import { PageQueryDto } from '../dto/page.dto.js';

@AdminController('apis', 'apis', 'The service’s APIs (resources of tokens) and the scopes they define.')
export class ApisController {
  constructor(private readonly apis: ApiService) {}

  @Post()
  @ApiOperation({ summary: 'Define an API' })
  @ApiJsonBody(CreateApiDto, { identifier: 'api://orders', displayName: 'Orders API' })
  @ApiProblems(409)
  @RequirePermission('Apis.Manage')
  @ApiCreatedResponse({ type: ProtectedApiResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateApiDto): Promise<ApiView> {
    return this.apis.create(principal.tenantId, principal, body);
  }

  @Get()
  @ApiOperation({ summary: 'List APIs with their scopes' })
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: ApiPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: PageQueryDto): Promise<Page<ApiView>> {
    return this.apis.list(principal.tenantId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read an API with its scopes' })
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: ProtectedApiResponse })
  get(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<ApiView> {
    return this.apis.get(principal.tenantId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename an API or change its token version' })
  @ApiJsonBody(UpdateApiDto, { accessTokenVersion: 1 })
  @ApiProblems(409)
  @RequirePermission('Apis.Manage')
  @ApiOkResponse({ type: ProtectedApiResponse })
  update(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Body() body: UpdateApiDto): Promise<ApiView> {
    return this.apis.update(principal.tenantId, principal, id, body);
  }

  @Post(':id/scopes')
  @ApiOperation({ summary: 'Add a scope to an API' })
  @ApiJsonBody(CreateScopeDto, { value: 'Orders.Read', description: 'Read orders' })
  @ApiProblems(409)
  @RequirePermission('Apis.Manage')
  @ApiCreatedResponse({ type: ApiScopeResponse })
  addScope(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Body() body: CreateScopeDto): Promise<ApiScopeView> {
    return this.apis.addScope(principal.tenantId, principal, id, body);
  }
}
