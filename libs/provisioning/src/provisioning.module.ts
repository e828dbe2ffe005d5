import { Module } from '@nestjs/common';
import { AccountsModule } from '@gatehouse/accounts';
import { ApisModule } from '@gatehouse/apis';
import { AuditModule } from '@gatehouse/audit';
import { ClientsModule } from '@gatehouse/clients';
import { TenantsModule } from '@gatehouse/tenants';
import { TokensModule } from '@gatehouse/tokens';
import { BootstrapService } from './bootstrap.service.js';
import { ProvisioningRepository } from './provisioning.repository.js';
import { TenantSettingsService } from './tenant-settings.service.js';

/** Use cases that span several contexts: bootstrapping a tenant and its first operator, tenant settings with their audit. */
@Module({
  imports: [TenantsModule, ApisModule, AuditModule, AccountsModule, ClientsModule, TokensModule],
  providers: [ProvisioningRepository, BootstrapService, TenantSettingsService],
  exports: [BootstrapService, TenantSettingsService],
})
export class ProvisioningModule {}
