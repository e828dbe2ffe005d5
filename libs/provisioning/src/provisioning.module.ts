import { Module } from '@nestjs/common';
import { AccountsModule } from '@gatehouse/accounts';
import { ApisModule } from '@gatehouse/apis';
import { AuditModule } from '@gatehouse/audit';
import { MailModule } from '@gatehouse/mail';
import { SessionsModule } from '@gatehouse/sessions';
import { ClientsModule } from '@gatehouse/clients';
import { HandoversModule } from '@gatehouse/handovers';
import { TenantsModule } from '@gatehouse/tenants';
import { TokensModule } from '@gatehouse/tokens';
import { BootstrapService } from './bootstrap.service.js';
import { ProvisioningRepository } from './provisioning.repository.js';
import { FirstRoleService } from './first-role.service.js';
import { StaffAccessService } from './staff-access.service.js';
import { StaffInvitationService } from './staff-invitation.service.js';
import { StaffLinks } from './staff-links.js';
import { TenantSettingsService } from './tenant-settings.service.js';

/**
 * Use cases that span several contexts: bootstrapping a tenant and its first operator, staff
 * access (and the fresh start of an account given its first role), tenant settings with their audit.
 */
@Module({
  imports: [TenantsModule, ApisModule, AccountsModule, ClientsModule, TokensModule, AuditModule, MailModule, SessionsModule, HandoversModule],
  providers: [ProvisioningRepository, BootstrapService, StaffLinks, StaffAccessService, StaffInvitationService, FirstRoleService, TenantSettingsService],
  exports: [BootstrapService, StaffAccessService, StaffInvitationService, TenantSettingsService],
})
export class ProvisioningModule {}
