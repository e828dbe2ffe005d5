import 'reflect-metadata';
import { type AppConfig, ConfigError, loadConfig } from '@gatehouse/config';
import { CommandError, UsageError } from './command.js';
import { COMMANDS } from './command-table.js';
import { dispatch, usage } from './dispatch.js';

/** Exit codes: 0 done, 1 failed (bad configuration included), 2 wrong command line. */
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0) {
    process.stderr.write(usage(COMMANDS));
    return 2;
  }
  if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(usage(COMMANDS));
    return 0;
  }
  const invocation = dispatch(COMMANDS, argv);
  let config: AppConfig | undefined;
  return invocation.command.run!({
    values: invocation.values,
    positionals: invocation.positionals,
    config: () => (config ??= loadConfig(process.env)),
    log,
    out: (text) => process.stdout.write(text),
  });
}

function explain(error: unknown): number {
  if (error instanceof UsageError) {
    log(`error: ${error.message} (npm run cli -- --help lists the commands)`);
    return 2;
  }
  if (error instanceof ConfigError || error instanceof CommandError) log(error.message);
  else log(`error: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => process.exit(explain(error)),
);
