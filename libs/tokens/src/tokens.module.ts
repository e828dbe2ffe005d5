import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { AuditModule } from '@gatehouse/audit';
import { MailModule } from '@gatehouse/mail';
import { TenantsModule } from '@gatehouse/tenants';
import { AssertionReplayGuard } from './assertion-replay-guard.js';
import { AuthFailureTracker } from './auth-failure-tracker.js';
import { ClientAssertionAuthenticator } from './client-assertion-authenticator.js';
import { ClientAuthAlerts } from './client-auth-alerts.js';
import { ClientAuthenticator } from './client-authenticator.js';
import { ClientCredentialsRepository } from './client-credentials.repository.js';
import { ClientCredentialsService } from './client-credentials.service.js';
import { CredentialDirectory } from './credential-directory.js';
import { FederatedAssertionAuthenticator } from './federation/federated-assertion-authenticator.js';
import { FederatedCredentialDirectory } from './federation/federated-credential-directory.js';
import { IssuerKeys } from './federation/issuer-keys.js';
import { ClientLimitsGate } from './limits/client-limits-gate.js';
import { SecretLeakService } from './secret-leak.service.js';
import { SigningKeyRepository } from './signing-key.repository.js';
import { SigningKeyService } from './signing-key.service.js';
import { SigningKeyAdminService } from './signing-key-admin.service.js';
import { TokenWarmUp } from './token-warm-up.js';

/**
 * Signing keys, access token verification and the client credentials grant (secrets and certificate
 * assertions). Its MetricsRegistry comes from the app's global OperationsModule.forRoot: importing
 * the module class here as well made a second instance whose middleware timed every Express request
 * again (each counted twice in http_request_duration_seconds).
 */
@Module({
  imports: [TenantsModule, AuditModule, MailModule],
  providers: [
    SigningKeyRepository,
    SigningKeyService,
    SigningKeyAdminService,
    ClientCredentialsRepository,
    CredentialDirectory,
    ClientAuthAlerts,
    AuthFailureTracker,
    ClientAuthenticator,
    AssertionReplayGuard,
    ClientAssertionAuthenticator,
    FederatedCredentialDirectory,
    {
      // Outbound calls to issuers follow their own allow-list (FEDERATION_PRIVATE_ISSUERS) and extra CA.
      provide: IssuerKeys,
      useFactory: (config: AppConfig) =>
        new IssuerKeys({ rules: { privateAllowed: config.federationPrivateIssuers, extraCa: config.outboundCa } }),
      inject: [APP_CONFIG],
    },
    FederatedAssertionAuthenticator,
    ClientLimitsGate,
    ClientCredentialsService,
    SecretLeakService,
    TokenWarmUp,
  ],
  exports: [
    TokenWarmUp,
    SecretLeakService,
    SigningKeyService,
    SigningKeyAdminService,
    ClientCredentialsService,
    ClientAuthenticator,
    AuthFailureTracker,
    AssertionReplayGuard,
    TenantsModule,
  ],
})
export class TokensModule {}
