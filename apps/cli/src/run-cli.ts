import { type AppConfig, ConfigError } from '@gatehouse/config';
import { CommandError, UsageError } from './command.js';
import { COMMANDS } from './command-table.js';
import { dispatch, usage } from './dispatch.js';

/** Where a CLI run writes, and the configuration it reads (tests pass their own). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  config(): AppConfig;
}

/** Runs one command line; the exit code: 0 done, 1 failed (bad configuration included), 2 wrong command line. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const log = (line: string) => io.err(`${line}\n`);
  try {
    if (argv.length === 0) {
      io.err(usage(COMMANDS));
      return 2;
    }
    if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
      io.out(usage(COMMANDS));
      return 0;
    }
    const invocation = dispatch(COMMANDS, argv);
    let config: AppConfig | undefined;
    return await invocation.command.run!({
      values: invocation.values,
      positionals: invocation.positionals,
      config: () => (config ??= io.config()),
      log,
      out: io.out,
    });
  } catch (error) {
    return explain(error, log);
  }
}

function explain(error: unknown, log: (line: string) => void): number {
  if (error instanceof UsageError) {
    log(`error: ${error.message} (npm run cli -- --help lists the commands)`);
    return 2;
  }
  if (error instanceof ConfigError || error instanceof CommandError) log(error.message);
  else log(`error: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}
