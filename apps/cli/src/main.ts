import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '@gatehouse/config';
import { runCommand } from './commands.js';
import { runOperatorCommand } from './operator.command.js';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                                  apply pending migrations
  bootstrap --tenant <slug> [--json] [--rotate-secret]
                                           create a tenant with its admin API, an Administrator
                                           operator and that operator's client; prints the secret once
  start                                    run identity, admin and worker in one process
  operator invite|reset-mfa ...            console staff: invite (prints an activation link),
                                           break-glass reset of a second factor (operator --help)
`;

async function main(): Promise<number> {
  const [first, ...rest] = process.argv.slice(2);
  if (first === 'operator') return runOperatorCommand(rest, loadConfig(process.env));
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      tenant: { type: 'string' },
      json: { type: 'boolean', default: false },
      'rotate-secret': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig(process.env);
  return runCommand(command, config, {
    tenant: values.tenant,
    json: values.json ?? false,
    rotateSecret: values['rotate-secret'] ?? false,
  });
}

main().then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(error.message);
    } else {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
    process.exitCode = 1;
  },
);
