import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import { urlencoded } from 'express';
import { AccountsModule } from '@gatehouse/accounts';
import { ApisModule } from '@gatehouse/apis';
import { AuditModule } from '@gatehouse/audit';
import { ClientsModule } from '@gatehouse/clients';
import { DocsModule } from '@gatehouse/docs';
import { EventsModule } from '@gatehouse/events';
import { OrganisationsModule } from '@gatehouse/organisations';
import { HandoversModule } from '@gatehouse/handovers';
import { InvitationsModule } from '@gatehouse/invitations';
import { MailModule } from '@gatehouse/mail';
import { AccessProvisioningModule, ProvisioningModule } from '@gatehouse/provisioning';
import { SessionsModule } from '@gatehouse/sessions';
import { TenantsModule } from '@gatehouse/tenants';
import { TokensModule } from '@gatehouse/tokens';
import { WorkQueuesModule } from '@gatehouse/workqueues';
import { AccountController } from './account/account.controller.js';
import { AccountPresenter } from './account/account.presenter.js';
import { ApisController } from './apis/apis.controller.js';
import { ApisPresenter } from './apis/apis.presenter.js';
import { ClientCredentialsPresenter } from './clients/client-credentials.presenter.js';
import { ClientDetail } from './clients/client-detail.js';
import { ClientFederationController } from './clients/client-federation.controller.js';
import { CredentialEnablingController } from './clients/credential-enabling.controller.js';
import { CredentialEnablingPresenter } from './clients/credential-enabling.presenter.js';
import { ClientFederationPresenter } from './clients/client-federation.presenter.js';
import { ClientHandoversPresenter } from './clients/client-handovers.presenter.js';
import { ClientsController } from './clients/clients.controller.js';
import { CredentialsConsoleController } from './credentials/credentials.controller.js';
import { CredentialsPresenter } from './credentials/credentials.presenter.js';
import { ClientsPresenter } from './clients/clients.presenter.js';
import { ClientLimitsPresenter } from './clients/client-limits.presenter.js';
import { PolicyController } from './policy/policy.controller.js';
import { PolicyPresenter } from './policy/policy.presenter.js';
import { AuditConsoleController } from './audit/audit.controller.js';
import { AuditPresenter } from './audit/audit.presenter.js';
import { DocsConsoleController } from './docs/docs.controller.js';
import { DocsPresenter } from './docs/docs.presenter.js';
import { EmailConsoleController } from './email/email.controller.js';
import { EmailPresenter } from './email/email.presenter.js';
import { ConsoleAssetsController } from './frame/console-assets.controller.js';
import { ConsoleFilter } from './frame/console.filter.js';
import { ConsoleGuard } from './frame/console.guard.js';
import { consoleHeaders } from './frame/console-headers.js';
import { ConsoleNotFoundController } from './frame/console-not-found.controller.js';
import { ConsoleOnce } from './frame/console-once.js';
import { ConsoleResponder } from './frame/console-responder.js';
import { ConsoleResultsController } from './frame/console-results.controller.js';
import { ConsoleStepUp } from './frame/console-step-up.js';
import { ConsoleTimedOut } from './frame/console-timed-out.js';
import { ConsoleSession } from './frame/console-session.js';
import { ConsoleTenantResolver } from './frame/console-tenant.js';
import { OverviewController } from './overview/overview.controller.js';
import { OverviewPresenter } from './overview/overview.presenter.js';
import { PasskeySupport } from './frame/passkey-support.js';
import { EnrolmentFlow } from './sign-in/enrolment.flow.js';
import { PasskeySignInFlow } from './sign-in/passkey.flow.js';
import { SignInController } from './sign-in/sign-in.controller.js';
import { SignInFlow } from './sign-in/sign-in.flow.js';
import { RequestsController } from './requests/requests.controller.js';
import { RequestsPresenter } from './requests/requests.presenter.js';
import { KeysController } from './keys/keys.controller.js';
import { KeysPresenter } from './keys/keys.presenter.js';
import { StaffController } from './staff/staff.controller.js';
import { StaffInvitationPresenter } from './staff/staff-invitation.presenter.js';
import { StaffPresenter } from './staff/staff.presenter.js';
import { UserActionsPresenter } from './users/user-actions.presenter.js';
import { UsersController } from './users/users.controller.js';
import { UsersPresenter } from './users/users.presenter.js';
import { WebhooksConsoleController } from './webhooks/webhooks.controller.js';
import { OrganisationsConsoleController } from './organisations/organisations.controller.js';
import { OrganisationsPresenter } from './organisations/organisations.presenter.js';
import { WebhooksPresenter } from './webhooks/webhooks.presenter.js';

/** The console's page groups, in the order their routes are tried. A new group adds its controller here. */
export const CONSOLE_PAGES = [
  SignInController,
  OverviewController,
  RequestsController,
  UsersController,
  ClientsController,
  ClientFederationController,
  CredentialEnablingController,
  CredentialsConsoleController,
  OrganisationsConsoleController,
  ApisController,
  DocsConsoleController,
  EmailConsoleController,
  AuditConsoleController,
  StaffController,
  WebhooksConsoleController,
  KeysController,
  PolicyController,
  AccountController,
  ConsoleResultsController,
];

const PRESENTERS = [
  SignInFlow,
  EnrolmentFlow,
  PasskeySignInFlow,
  OverviewPresenter,
  RequestsPresenter,
  UsersPresenter,
  UserActionsPresenter,
  StaffPresenter,
  StaffInvitationPresenter,
  AccountPresenter,
  ClientsPresenter,
  ClientCredentialsPresenter,
  ClientHandoversPresenter,
  ClientFederationPresenter,
  CredentialEnablingPresenter,
  ClientDetail,
  CredentialsPresenter,
  ApisPresenter,
  DocsPresenter,
  EmailPresenter,
  AuditPresenter,
  WebhooksPresenter,
  OrganisationsPresenter,
  KeysPresenter,
  PolicyPresenter,
  ClientLimitsPresenter,
];

/**
 * The operators' console (`/console`, `/t/{tenant}/console`): server-rendered pages on the admin
 * app, calling the same use cases as `/admin/v1`. Cookies and form bodies are parsed for console
 * routes only (the admin app parses JSON for its API and nothing else).
 */
@Module({
  imports: [
    AccountsModule,
    AuditModule,
    DocsModule,
    InvitationsModule,
    MailModule,
    SessionsModule,
    TenantsModule,
    WorkQueuesModule,
    ProvisioningModule,
    AccessProvisioningModule,
    ClientsModule,
    ApisModule,
    HandoversModule,
    EventsModule,
    TokensModule,
    OrganisationsModule,
  ],
  controllers: [ConsoleAssetsController, ...CONSOLE_PAGES, ConsoleNotFoundController],
  providers: [
    ConsoleSession,
    ConsoleTenantResolver,
    ConsoleGuard,
    ConsoleFilter,
    ConsoleResponder,
    ConsoleOnce,
    ConsoleStepUp,
    ConsoleTimedOut,
    PasskeySupport,
    ...PRESENTERS,
  ],
})
export class ConsoleModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(consoleHeaders).forRoutes(ConsoleAssetsController, ...CONSOLE_PAGES, ConsoleNotFoundController);
    consumer
      .apply(cookieParser(), urlencoded({ extended: false, limit: '16kb', parameterLimit: 100 }))
      .forRoutes(...CONSOLE_PAGES, ConsoleNotFoundController);
  }
}
