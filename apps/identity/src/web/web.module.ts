import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import cookieParser from 'cookie-parser';
import { urlencoded } from 'express';
import { AccountsModule } from '@gatehouse/accounts';
import { DocsModule } from '@gatehouse/docs';
import { InvitationsModule } from '@gatehouse/invitations';
import { AccessProvisioningModule } from '@gatehouse/provisioning';
import { SessionsModule } from '@gatehouse/sessions';
import { TenantsModule } from '@gatehouse/tenants';
import { ActivationController } from './activation.controller.js';
import { SessionAliveController } from './session-alive.controller.js';
import { AssetsController } from './assets.controller.js';
import { DocsController } from './docs.controller.js';
import { HandoverController } from './handover.controller.js';
import { InvitationController } from './invitation.controller.js';
import { LoginController } from './login.controller.js';
import { NotFoundPageFilter } from './not-found.filter.js';
import { PasswordController } from './password.controller.js';
import { PasswordResetController } from './password-reset.controller.js';
import { RequestAccessController } from './request-access.controller.js';
import { SecondFactorController } from './second-factor.controller.js';
import { UiTenantResolver } from './ui-tenant.resolver.js';
import { WebSession } from './web-session.js';
import { WebErrorFilter } from './web.filter.js';

const PAGES = [
  LoginController,
  SecondFactorController,
  PasswordController,
  PasswordResetController,
  DocsController,
  InvitationController,
  ActivationController,
  SessionAliveController,
];
/** Public pages of the access-request process (their forms carry longer text). */
const ACCESS_PAGES = [RequestAccessController, HandoverController];

/**
 * The server-rendered Web UI. Cookies and form bodies are parsed for these controllers only: the
 * app runs with `bodyParser: false` because the token endpoint reads its raw body itself.
 */
@Module({
  imports: [AccountsModule, SessionsModule, DocsModule, InvitationsModule, AccessProvisioningModule, TenantsModule],
  controllers: [...PAGES, ...ACCESS_PAGES, AssetsController],
  providers: [WebSession, UiTenantResolver, WebErrorFilter, { provide: APP_FILTER, useClass: NotFoundPageFilter }],
})
export class WebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(cookieParser(), urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }))
      .forRoutes(...PAGES);
    consumer
      .apply(cookieParser(), urlencoded({ extended: false, limit: '64kb', parameterLimit: 20 }))
      .forRoutes(...ACCESS_PAGES);
  }
}
