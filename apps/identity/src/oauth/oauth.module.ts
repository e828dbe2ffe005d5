import { Module } from '@nestjs/common';
import { TokensModule } from '@gatehouse/tokens';
import { DiscoveryController } from './discovery.controller.js';
import { EntraErrorFilter } from './entra-error.filter.js';
import { ErrorInfoController } from './error-info.controller.js';
import { TokenErrorResponder } from './token-error.responder.js';
import { TokenController } from './token.controller.js';
import { TokenEndpoint } from './token.endpoint.js';

/** The OAuth surface of the identity app: token endpoint, discovery, JWKS. */
@Module({
  imports: [TokensModule],
  controllers: [TokenController, DiscoveryController, ErrorInfoController],
  providers: [TokenEndpoint, TokenErrorResponder, EntraErrorFilter],
})
export class OAuthModule {}
