import { Module } from '@nestjs/common';
import { TenantsModule } from '@gatehouse/tenants';
import { ClientAuthenticator } from './client-authenticator.js';
import { ClientCredentialsRepository } from './client-credentials.repository.js';
import { ClientCredentialsService } from './client-credentials.service.js';
import { CredentialDirectory } from './credential-directory.js';
import { SigningKeyRepository } from './signing-key.repository.js';
import { SigningKeyService } from './signing-key.service.js';

/** Signing keys, access token verification and the client credentials grant. */
@Module({
  imports: [TenantsModule],
  providers: [
    SigningKeyRepository,
    SigningKeyService,
    ClientCredentialsRepository,
    CredentialDirectory,
    ClientAuthenticator,
    ClientCredentialsService,
  ],
  exports: [SigningKeyService, ClientCredentialsService, ClientAuthenticator, TenantsModule],
})
export class TokensModule {}
