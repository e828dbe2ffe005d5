import { Module } from '@nestjs/common';
import { AuditModule } from '@gatehouse/audit';
import { MailModule } from '@gatehouse/mail';
import { TenantsModule } from '@gatehouse/tenants';
import { OffboardingRepository } from './offboarding.repository.js';
import { OffboardingService } from './offboarding.service.js';
import { OrganisationRepository } from './organisation.repository.js';
import { OrganisationService } from './organisation.service.js';

/** Partner organisations and their offboarding (§12). */
@Module({
  imports: [AuditModule, MailModule, TenantsModule],
  providers: [OrganisationRepository, OrganisationService, OffboardingRepository, OffboardingService],
  exports: [OrganisationService, OffboardingService],
})
export class OrganisationsModule {}
