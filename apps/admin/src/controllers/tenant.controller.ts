import { Body, Get, Patch } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { TenantResponse } from '../dto/responses.dto.js';
import { AdminController } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { UpdateTenantDto } from '../dto/tenant-audit.dto.js';
import { TenantSettingsService, type TenantView } from '@gatehouse/provisioning';

@AdminController('tenant', 'tenant')
export class TenantController {
  constructor(private readonly settings: TenantSettingsService) {}

  @Get()
  @RequirePermission('Clients.Read')
  @ApiOkResponse({ type: TenantResponse })
  get(@Principal() principal: AdminPrincipal): Promise<TenantView> {
    return this.settings.get(principal.tenantId);
  }

  @Patch()
  @RequirePermission('Tenant.Manage')
  @ApiOkResponse({ type: TenantResponse })
  update(@Principal() principal: AdminPrincipal, @Body() body: UpdateTenantDto): Promise<TenantView> {
    return this.settings.update(principal.tenantId, principal, body);
  }
}
