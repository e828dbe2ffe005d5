import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { configureHttpApp } from '@gatehouse/http';
import { AdminModule, type AdminModuleOptions } from './admin.module.js';
import { buildOpenApiDocument } from './openapi.js';
import { jsonBodies } from './problem/json-bodies.js';

/**
 * Nothing the admin app answers may be kept by a browser or a proxy: answers carry secrets
 * (`secretText`, `initialPassword`) and personal data. Set first, so that every answer has it,
 * including refusals made before a controller runs.
 */
function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  next();
}

function setupOpenApi(app: NestExpressApplication): void {
  SwaggerModule.setup('admin/docs', app, buildOpenApiDocument(app), { jsonDocumentUrl: 'admin/openapi.json', raw: ['json'] });
}

/** Builds the admin app with everything production has; `main.ts` and tests both call this. */
export async function createAdminApp(options: AdminModuleOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AdminModule.register(options), {
    bufferLogs: true,
    bodyParser: false,
  });
  configureHttpApp(app, options.config);
  app.use(noStore);
  // The REST API takes JSON only; the console (/console, /t/{tenant}/console) parses its own forms.
  app.use('/admin', jsonBodies());
  setupOpenApi(app);
  await app.init();
  return app;
}
