import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** Nest's own warnings and errors, on stderr: the CLI's standard output is its answer (`--json`). */
export class StderrLogger extends ConsoleLogger {
  constructor() {
    super('cli', { logLevels: ['error', 'warn'] });
  }

  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel, _stream?: 'stdout' | 'stderr', errorStack?: unknown): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}
