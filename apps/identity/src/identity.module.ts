import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';
import { type CoreOptions, coreImports } from '@gatehouse/schema';
import { OAuthModule } from './oauth/oauth.module.js';
import { WebModule } from './web/web.module.js';

export interface IdentityModuleOptions extends Partial<CoreOptions> {
  config: AppConfig;
}

/** The public app: token endpoint, discovery and JWKS, Web UI. */
@Module({})
export class IdentityModule {
  static register(options: IdentityModuleOptions): DynamicModule {
    return {
      module: IdentityModule,
      imports: [...coreImports(options.config, { app: 'identity', ...options }), OAuthModule, WebModule],
    };
  }
}
