import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { configureHttpApp } from '@gatehouse/http';
import { IdentityModule, type IdentityModuleOptions } from './identity.module.js';

/** Builds the identity app with everything production has; `main.ts` and tests both call this. */
export async function createIdentityApp(options: IdentityModuleOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(IdentityModule.register(options), {
    bufferLogs: true,
    bodyParser: false,
  });
  configureHttpApp(app, options.config);
  await app.init();
  return app;
}
