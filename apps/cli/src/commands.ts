import type { AppConfig } from '@gatehouse/config';
import { migrateDatabase } from '@gatehouse/schema';
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
      return migrate(config);
    case 'start':
      await startAll(config, log);
      return 0;
    default:
      log(`Unknown command "${command}". Run with --help for the list.`);
      return 2;
  }
}

async function migrate(config: AppConfig): Promise<number> {
  const runtime = await resolveDatabase(config, log);
  try {
    const applied = await migrateDatabase(runtime.config.databaseUrl);
    log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    return 0;
  } finally {
    await runtime.stop();
  }
}
