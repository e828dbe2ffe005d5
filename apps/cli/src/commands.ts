import type { AppConfig } from '@gatehouse/config';
import { migrateDatabase } from '@gatehouse/schema';
import { bootstrapTenant, printBootstrap } from './bootstrap.command.js';
import { runCredentialCommand } from './credential.commands.js';
import { resolveDatabase } from './database-runtime.js';
import { startAll } from './start.js';

export interface CommandOptions {
  tenant: string | undefined;
  json: boolean;
  rotateSecret: boolean;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

export async function runCommand(command: string, config: AppConfig, options: CommandOptions): Promise<number> {
  switch (command) {
    case 'migrate':
      return withDatabase(config, async () => 0);
    case 'bootstrap':
      if (!options.tenant) {
        log('bootstrap needs --tenant <slug>');
        return 2;
      }
      return withDatabase(config, async (databaseConfig) => {
        const result = await bootstrapTenant(databaseConfig, options.tenant!, options.rotateSecret);
        process.stdout.write(printBootstrap(result, options.json));
        return 0;
      });
    case 'secret': case 'certificate': return runCredentialCommand(command, config, process.argv.slice(process.argv.indexOf(command) + 1));
    case 'start':
      await startAll(config, log);
      return 0;
    default:
      log(`Unknown command "${command}". Run with --help for the list.`);
      return 2;
  }
}

/** Resolves the database, applies pending migrations, runs the work, stops an embedded server. */
export async function withDatabase(
  config: AppConfig,
  work: (config: AppConfig & { databaseUrl: string }) => Promise<number>,
): Promise<number> {
  const runtime = await resolveDatabase(config, log);
  try {
    const applied = await migrateDatabase(runtime.config.databaseUrl);
    log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');
    return await work(runtime.config);
  } finally {
    await runtime.stop();
  }
}
