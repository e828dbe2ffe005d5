import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import express from 'express';
import { TokensModule } from '@gatehouse/tokens';
import { DiscoveryController } from './discovery.controller.js';
import { EntraErrorFilter } from './entra-error.filter.js';
import { ErrorInfoController } from './error-info.controller.js';
import { SecretScanningController } from './secret-scanning.controller.js';
import { TokenErrorResponder } from './token-error.responder.js';
import { TokenController } from './token.controller.js';
import { TokenEndpoint } from './token.endpoint.js';

/** The OAuth surface of the identity app: token endpoint, discovery, JWKS, the secret-leak report. */
@Module({
  imports: [TokensModule],
  controllers: [TokenController, DiscoveryController, ErrorInfoController, SecretScanningController],
  providers: [TokenEndpoint, TokenErrorResponder, EntraErrorFilter],
})
export class OAuthModule implements NestModule {
  /** The identity app parses no bodies by default; the leak report is JSON (100 tokens fit in 64 KiB). */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(express.json({ limit: '64kb', strict: true, type: () => true }))
      .forRoutes({ path: ':tenant/secret-scanning/report', method: RequestMethod.POST });
  }
}
