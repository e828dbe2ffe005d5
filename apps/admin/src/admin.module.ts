import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AccountsModule } from '@gatehouse/accounts';
import { ApisModule } from '@gatehouse/apis';
import { AuditModule } from '@gatehouse/audit';
import { ClientsModule } from '@gatehouse/clients';
import { DocsModule } from '@gatehouse/docs';
import { EventsModule } from '@gatehouse/events';
import { OrganisationsModule } from '@gatehouse/organisations';
import { InvitationsModule } from '@gatehouse/invitations';
import { MailModule } from '@gatehouse/mail';
import { ProvisioningModule } from '@gatehouse/provisioning';
import type { AppConfig } from '@gatehouse/config';
import { type CoreOptions, coreImports } from '@gatehouse/schema';
import { TenantsModule } from '@gatehouse/tenants';
import { TokensModule } from '@gatehouse/tokens';
import { AccessProvisioningModule } from '@gatehouse/provisioning';
import { AdminAuthGuard } from './auth/admin-auth.guard.js';
import { ConsoleModule } from './console/console.module.js';
import { AccessRequestsController } from './controllers/access-requests.controller.js';
import { ApisController } from './controllers/apis.controller.js';
import { AuditController } from './controllers/audit.controller.js';
import { ClientCertificatesController } from './controllers/client-certificates.controller.js';
import { ClientsController } from './controllers/clients.controller.js';
import { CredentialReportController } from './controllers/credential-report.controller.js';
import { CredentialEnablingController } from './controllers/credential-enabling.controller.js';
import { DocSectionsController } from './controllers/doc-sections.controller.js';
import { EmailsController } from './controllers/emails.controller.js';
import { FederatedCredentialsController } from './controllers/federated-credentials.controller.js';
import { ClientHandoversController, HandoversController } from './controllers/handovers.controller.js';
import { InvitationsController } from './controllers/invitations.controller.js';
import { SigningKeysController } from './controllers/signing-keys.controller.js';
import { TenantController } from './controllers/tenant.controller.js';
import { CredentialPolicyController } from './controllers/credential-policy.controller.js';
import { UserCredentialsController } from './controllers/user-credentials.controller.js';
import { UsersController } from './controllers/users.controller.js';
import { WebhooksController } from './controllers/webhooks.controller.js';
import { OrganisationsController } from './controllers/organisations.controller.js';
import { ProblemFilter } from './problem/problem.filter.js';
import { createValidationPipe } from './problem/validation.js';

export interface AdminModuleOptions extends Partial<CoreOptions> {
  config: AppConfig;
}

export const ADMIN_CONTROLLERS = [
  TenantController,
  SigningKeysController,
  CredentialPolicyController,
  UsersController,
  UserCredentialsController,
  ApisController,
  ClientsController,
  ClientCertificatesController,
  CredentialReportController,
  CredentialEnablingController,
  FederatedCredentialsController,
  AuditController,
  DocSectionsController,
  InvitationsController,
  EmailsController,
  AccessRequestsController,
  ClientHandoversController,
  HandoversController,
  WebhooksController,
  OrganisationsController,
];

/** The internal admin app: the REST API under /admin/v1 and the operators' console under /console. */
@Module({})
export class AdminModule {
  static register(options: AdminModuleOptions): DynamicModule {
    return {
      module: AdminModule,
      imports: [
        ...coreImports(options.config, { app: 'admin', ...options }),
        TenantsModule,
        TokensModule,
        AuditModule,
        AccountsModule,
        ApisModule,
        ClientsModule,
        MailModule,
        DocsModule,
        InvitationsModule,
        ConsoleModule,
        AccessProvisioningModule,
        ProvisioningModule,
        EventsModule,
        OrganisationsModule,
      ],
      controllers: ADMIN_CONTROLLERS,
      providers: [
        AdminAuthGuard,
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
