import { Module } from '@nestjs/common';
import { AccountsModule } from '@gatehouse/accounts';
import { ApisModule } from '@gatehouse/apis';
import { ClientsModule } from '@gatehouse/clients';
import { TenantsModule } from '@gatehouse/tenants';
import { TokensModule } from '@gatehouse/tokens';
import { BootstrapService } from './bootstrap.service.js';
import { ProvisioningRepository } from './provisioning.repository.js';

/** Use cases that span several contexts: bootstrapping a tenant and its first operator. */
@Module({
  imports: [TenantsModule, ApisModule, AccountsModule, ClientsModule, TokensModule],
  providers: [ProvisioningRepository, BootstrapService],
  exports: [BootstrapService],
})
export class ProvisioningModule {}
