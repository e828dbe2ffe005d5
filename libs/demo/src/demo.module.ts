import { Module } from '@nestjs/common';
import { AccountsModule } from '@gatehouse/accounts';
import { ApisModule } from '@gatehouse/apis';
import { AuditModule } from '@gatehouse/audit';
import { ClientsModule } from '@gatehouse/clients';
import { DocsModule } from '@gatehouse/docs';
import { OrganisationsModule } from '@gatehouse/organisations';
import { AccessProvisioningModule, ProvisioningModule } from '@gatehouse/provisioning';
import { TenantsModule } from '@gatehouse/tenants';
import { DemoFillService } from './demo-fill.service.js';
import { DemoRepository } from './demo.repository.js';
import { DemoStaffService } from './demo-staff.service.js';

/** The demo fill: the use cases of every context, orchestrated for a first look at the console. */
@Module({
  imports: [ProvisioningModule, AccessProvisioningModule, TenantsModule, AccountsModule, OrganisationsModule, ApisModule, DocsModule, ClientsModule, AuditModule],
  providers: [DemoRepository, DemoStaffService, DemoFillService],
  exports: [DemoFillService, ProvisioningModule],
})
export class DemoModule {}
