import { Module } from '@nestjs/common';
import { AuditModule } from '@gatehouse/audit';
import { MailModule } from '@gatehouse/mail';
import { OrganisationsModule } from '@gatehouse/organisations';
import { AccountLinkRepository } from './account-link.repository.js';
import { ActivationService } from './activation.service.js';
import { UserCredentialsService } from './user-credentials.service.js';
import { LoginRepository } from './login.repository.js';
import { LoginService } from './login.service.js';
import { UserRepository } from './user.repository.js';
import { UserService } from './user.service.js';
import { MfaRepository } from './mfa/mfa.repository.js';
import { SecondFactorService } from './mfa/second-factor.service.js';
import { ConsoleActivationService } from './console-activation.service.js';
import { PasskeyRepository } from './mfa/passkey.repository.js';
import { PasskeyService } from './mfa/passkey.service.js';
import { PasswordResetRepository } from './reset/password-reset.repository.js';
import { PasswordResetService } from './reset/password-reset.service.js';

@Module({
  imports: [AuditModule, MailModule, OrganisationsModule],
  providers: [
    UserRepository,
    UserService,
    LoginRepository,
    LoginService,
    AccountLinkRepository,
    ActivationService,
    UserCredentialsService,
    MfaRepository,
    SecondFactorService,
    ConsoleActivationService,
    PasskeyRepository,
    PasskeyService,
    PasswordResetRepository,
    PasswordResetService,
  ],
  exports: [
    UserService,
    UserRepository,
    LoginService,
    ActivationService,
    UserCredentialsService,
    SecondFactorService,
    ConsoleActivationService,
    PasskeyService,
    PasswordResetService,
  ],
})
export class AccountsModule {}
