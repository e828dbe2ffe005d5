import type { Server } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@gatehouse/config';
import { AppLifecycle } from './app-lifecycle.js';
import { HttpDrain } from './http-drain.js';
import type { MetricsRegistry } from './metrics.js';
import type { AppRole, RunningApp } from './process-runner.js';

/** An HTTP app (identity, admin) as a role of {@link runApps}: built, listening on `port` at HOST. */
export function httpRole(
  name: string,
  config: AppConfig,
  port: number,
  create: (metrics: MetricsRegistry) => Promise<NestExpressApplication>,
  describe: (url: string) => string = (url) => `${name} listening on ${url}`,
): AppRole {
  return {
    name,
    async start(metrics): Promise<RunningApp> {
      const app = await create(metrics);
      const lifecycle = app.get(AppLifecycle);
      const drain = new HttpDrain(app.getHttpServer() as Server);
      await app.listen(port, config.host);
      const url = await app.getUrl();
      return {
        name,
        description: describe(url.replace('[::1]', 'localhost')),
        ready: () => lifecycle.ready(),
        async drain(timeoutMs) {
          lifecycle.draining = true;
          await drain.drain(timeoutMs);
        },
        close: () => app.close(),
      };
    },
  };
}
