import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import express, { type NextFunction, type Request, type Response } from 'express';
import { configureHttpApp } from '@gatehouse/http';
import { AdminModule, type AdminModuleOptions } from './admin.module.js';
import { problem, sendProblem } from './problem/problem.js';

export const BODY_LIMIT = '64kb';

const NUL = /%00/;

/**
 * JSON bodies up to 64 KiB; a malformed or oversized body is answered as problem+json here. A NUL
 * in the path or query is refused at once: no stored object can be named by one, since Postgres
 * text cannot hold it (in a body, validation or the database refuses it, mapped to a 400).
 */
function jsonBodies(): (req: Request, res: Response, next: NextFunction) => void {
  const parse = express.json({ limit: BODY_LIMIT, strict: true });
  const invalidCharacters = problem(400, 'invalid_characters', 'The request contains a NUL character.');
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (!error && NUL.test(req.originalUrl)) {
        return sendProblem(res, invalidCharacters);
      }
      if (!error) return next();
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') return sendProblem(res, problem(413, 'payload_too_large', `The body exceeds ${BODY_LIMIT}.`));
      if (type === 'entity.parse.failed') return sendProblem(res, problem(400, 'malformed_json', 'The body is not valid JSON.'));
      return sendProblem(res, problem(400, 'bad_request', 'The body could not be read.'));
    });
}

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
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Gatehouse admin API')
      .setVersion('1')
      .setDescription('Bearer tokens for api://gatehouse-admin/.default, issued by the tenant token endpoint.')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
      .build(),
  );
  SwaggerModule.setup('admin/docs', app, document, { jsonDocumentUrl: 'admin/openapi.json', raw: ['json'] });
}

/** Builds the admin app with everything production has; `main.ts` and tests both call this. */
export async function createAdminApp(options: AdminModuleOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AdminModule.register(options), {
    bufferLogs: true,
    bodyParser: false,
  });
  configureHttpApp(app, options.config);
  app.use(noStore);
  app.use(jsonBodies());
  setupOpenApi(app);
  await app.init();
  return app;
}
