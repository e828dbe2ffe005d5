import { Body, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { type ApiScopeView, ApiService, type ApiView } from '@gatehouse/apis';
import type { Page } from '@gatehouse/database';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { ApiPage, ProtectedApiResponse, ApiScopeResponse } from '../dto/responses.dto.js';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { CreateApiDto, CreateScopeDto, UpdateApiDto } from '../dto/apis.dto.js';
import { PageQueryDto } from '../dto/page.dto.js';

@AdminController('apis', 'apis')
export class ApisController {
  constructor(private readonly apis: ApiService) {}

  @Post()
  @RequirePermission('Apis.Manage')
  @ApiCreatedResponse({ type: ProtectedApiResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateApiDto): Promise<ApiView> {
    return this.apis.create(principal.tenantId, principal, body);
  }

  @Get()
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: ApiPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: PageQueryDto): Promise<Page<ApiView>> {
    return this.apis.list(principal.tenantId, query);
  }

  @Get(':id')
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: ProtectedApiResponse })
  get(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<ApiView> {
    return this.apis.get(principal.tenantId, id);
  }

  @Patch(':id')
  @RequirePermission('Apis.Manage')
  @ApiOkResponse({ type: ProtectedApiResponse })
  update(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Body() body: UpdateApiDto): Promise<ApiView> {
    return this.apis.update(principal.tenantId, principal, id, body);
  }

  @Post(':id/scopes')
  @RequirePermission('Apis.Manage')
  @ApiCreatedResponse({ type: ApiScopeResponse })
  addScope(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Body() body: CreateScopeDto): Promise<ApiScopeView> {
    return this.apis.addScope(principal.tenantId, principal, id, body);
  }
}
