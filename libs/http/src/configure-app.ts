import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import type { AppConfig } from '@gatehouse/config';
import { QuietFrameworkLogger } from '@gatehouse/logging';

/** Settings every HTTP app shares: its logger, proxy trust and security headers. Each `main.ts` enables shutdown hooks itself (several apps share one process under `npm start`). */
export function configureHttpApp(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  express.useLogger(app.get(QuietFrameworkLogger));
  express.disable('x-powered-by');
  express.set('trust proxy', config.trustProxy === false ? false : config.trustProxy);
  express.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
        },
      },
      hsts: config.publicUrl.startsWith('https:'),
    }),
  );
}
