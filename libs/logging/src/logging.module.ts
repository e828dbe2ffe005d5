import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { Logger, LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { AppConfig } from '@gatehouse/config';
import { currentApp } from './app-scope.js';
import { QuietFrameworkLogger } from './quiet-framework-logger.js';
import { REDACT_PATHS, maskUrl } from './redaction.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface LoggingOptions {
  app: string;
  /** Where log lines go; tests pass a stream to capture them. Defaults to stdout. */
  destination?: DestinationStream;
}

/** Structured JSON logs with a request id on every line and in the `x-request-id` response header. */
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig, options: LoggingOptions): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: [
            {
              level: config.logLevel,
              base: null,
              // pino keeps one root logger per process: the app comes from the running code's scope.
              mixin: () => ({ app: currentApp() ?? options.app }),
              redact: { paths: REDACT_PATHS, censor: '[redacted]' },
              genReqId: (req: IncomingMessage, res: ServerResponse) => {
                const offered = req.headers['x-request-id'];
                const id = typeof offered === 'string' && REQUEST_ID.test(offered) ? offered : randomUUID();
                res.setHeader('x-request-id', id);
                return id;
              },
              serializers: {
                req: (req: { id: string; method: string; url: string }) => ({
                  id: req.id,
                  method: req.method,
                  url: maskUrl(req.url),
                }),
                res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
              },
              autoLogging: { ignore: (req: IncomingMessage) => req.url?.startsWith('/health') ?? false },
            },
            // The CLI's standard output is its answer (`--json` is parsed by scripts): its logs go to stderr.
            options.destination ?? (options.app === 'cli' ? process.stderr : process.stdout),
          ],
        }),
      ],
      providers: [
        {
          provide: QuietFrameworkLogger,
          useFactory: (logger: Logger) => new QuietFrameworkLogger(logger),
          inject: [Logger],
        },
      ],
      exports: [QuietFrameworkLogger],
    };
  }
}
