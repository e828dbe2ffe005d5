import { Module } from '@nestjs/common';
import { AccountsModule } from '@gatehouse/accounts';
import { ApisModule } from '@gatehouse/apis';
import { AuditModule } from '@gatehouse/audit';
import { MailModule } from '@gatehouse/mail';
import { OrganisationsModule } from '@gatehouse/organisations';
import { AdminCallerRepository } from './admin-caller.repository.js';
import { ClientBrowseRepository } from './client-browse.repository.js';
import { ClientBrowseService } from './client-browse.service.js';
import { ClientCertificateService } from './client-certificate.service.js';
import { ClientRepository } from './client.repository.js';
import { ClientService } from './client.service.js';
import { OwnedCredentialsRepository } from './owned-credentials.repository.js';
import { OwnedCredentialsService } from './owned-credentials.service.js';
import { FederatedCredentialRepository } from './federated-credential.repository.js';
import { FederatedCredentialService } from './federated-credential.service.js';
import { ScopeResolver } from './scope-resolver.js';
import { CredentialPolicyRepository } from './policy/credential-policy.repository.js';
import { CredentialPolicyService } from './policy/credential-policy.service.js';
import { PolicyBreachRepository } from './policy/policy-breach.repository.js';
import { ClientLimitsService } from './limits/client-limits.service.js';
import { LeastPrivilegeService } from './least-privilege.service.js';
import { StaleCredentialService } from './stale/stale-credential.service.js';
import { CredentialEnablingService } from './stale/credential-enabling.service.js';
import { StaleSettingsSource } from './stale/stale-settings.js';
import { PolicyStaleSettings } from './stale/policy-stale-settings.js';
import { CredentialReportRepository } from './credential-report/credential-report.repository.js';
import { CredentialReportService } from './credential-report/credential-report.service.js';
import { SecretExpiryWarningService } from './secret-expiry-warning.service.js';

@Module({
  imports: [AuditModule, AccountsModule, ApisModule, MailModule, OrganisationsModule],
  providers: [
    PolicyBreachRepository, ClientLimitsService, CredentialPolicyRepository, CredentialPolicyService,
    AdminCallerRepository, ClientRepository, ClientBrowseRepository, ClientBrowseService, ScopeResolver, ClientService,
    ClientCertificateService, FederatedCredentialRepository, FederatedCredentialService, SecretExpiryWarningService,
    OwnedCredentialsRepository, OwnedCredentialsService, CredentialReportRepository, CredentialReportService,
    LeastPrivilegeService, StaleCredentialService, CredentialEnablingService, { provide: StaleSettingsSource, useClass: PolicyStaleSettings },
  ],
  exports: [
    ClientLimitsService, CredentialPolicyService, CredentialReportService, LeastPrivilegeService, StaleCredentialService,
    CredentialEnablingService, StaleSettingsSource, AdminCallerRepository, ClientService, ClientBrowseService, ClientCertificateService,
    FederatedCredentialRepository, FederatedCredentialService, ClientRepository, SecretExpiryWarningService, OwnedCredentialsService,
  ],
})
export class ClientsModule {}
