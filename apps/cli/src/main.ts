import 'reflect-metadata';
import { loadConfig } from '@gatehouse/config';
import { runCli } from './run-cli.js';

/** Exit codes: 0 done, 1 failed (bad configuration included), 2 wrong command line. */
void runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  config: () => loadConfig(process.env),
}).then((code) => process.exit(code));
