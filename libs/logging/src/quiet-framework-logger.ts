import type { LoggerService } from '@nestjs/common';

/**
 * Nest's start-up chatter (a line per module, controller and route: about 160 under `npm start`)
 * goes to `debug`; everything else passes through unchanged. `DataSourceNameRegistry` warns when
 * several apps in one process each name their data source "default": each app is its own Nest
 * application with its own connection, so the warning says nothing there.
 */
const STARTUP_CONTEXTS = new Set([
  'NestFactory',
  'NestApplication',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'DataSourceNameRegistry',
]);

export class QuietFrameworkLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (fromStartup(rest)) return this.inner.debug?.(message, ...rest);
    this.inner.log(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    if (fromStartup(rest)) return this.inner.debug?.(message, ...rest);
    this.inner.warn(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.inner.error(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug?.(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose?.(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.inner.fatal?.(message, ...rest);
  }
}

function fromStartup(rest: unknown[]): boolean {
  const context = rest[rest.length - 1];
  return typeof context === 'string' && STARTUP_CONTEXTS.has(context);
}
