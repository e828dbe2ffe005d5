import { Body, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { TenantResponse } from '../dto/responses.dto.js';
import { AdminController, ApiJsonBody } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { UpdateTenantDto } from '../dto/tenant-audit.dto.js';
import { TenantSettingsService, type TenantView } from '@gatehouse/provisioning';

@AdminController('tenant', 'tenant', 'The tenant acted on: its signing algorithm, token lifetimes and what a token request may ask for.')
export class TenantController {
  constructor(private readonly settings: TenantSettingsService) {}

  @Get()
  @ApiOperation({ summary: 'Read the tenant settings' })
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: TenantResponse })
  get(@Principal() principal: AdminPrincipal): Promise<TenantView> {
    return this.settings.get(principal.tenantId);
  }

  @Patch()
  @ApiOperation({ summary: 'Change the signing algorithm or token lifetimes' })
  @ApiJsonBody(UpdateTenantDto, { accessTokenLifetimeSeconds: 3599, extAccessTokenLifetimeSeconds: 3599, signingAlgorithm: 'RS256' })
  @RequirePermission('Tenant.Manage')
  @ApiOkResponse({ type: TenantResponse })
  update(@Principal() principal: AdminPrincipal, @Body() body: UpdateTenantDto): Promise<TenantView> {
    return this.settings.update(principal.tenantId, principal, body);
  }
}
