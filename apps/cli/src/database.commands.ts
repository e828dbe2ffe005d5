import type { AppConfig } from '@gatehouse/config';
import { migrateDatabase } from '@gatehouse/schema';
import { bootstrapTenant, printBootstrap } from './bootstrap.command.js';
import { type Command, type CommandInput, requiredOption } from './command.js';
import { resolveDatabase } from './database-runtime.js';

export const migrateCommand: Command = {
  summary: 'apply pending migrations (DATABASE_URL, or the embedded Postgres under DATA_DIR)',
  run: (input) => withDatabase(input, async () => 0),
};

export const bootstrapCommand: Command = {
  summary:
    "create a tenant with its admin API, an Administrator operator and that operator's client; prints the secret once",
  usage: '--tenant <slug> [--json] [--rotate-secret]',
  options: {
    tenant: { type: 'string' },
    json: { type: 'boolean', default: false },
    'rotate-secret': { type: 'boolean', default: false },
  },
  run: (input) => {
    const tenant = requiredOption(input, 'tenant');
    return withDatabase(input, async (config) => {
      const result = await bootstrapTenant(config, tenant, input.values['rotate-secret'] === true);
      input.out(printBootstrap(result, input.values.json === true));
      return 0;
    });
  },
};

/** Resolves the database, applies pending migrations, runs the work, stops an embedded server. */
export async function withDatabase(
  input: CommandInput,
  work: (config: AppConfig & { databaseUrl: string }) => Promise<number>,
): Promise<number> {
  const runtime = await resolveDatabase(input.config(), input.log);
  try {
    const applied = await migrateDatabase(runtime.config.databaseUrl);
    input.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');
    return await work(runtime.config);
  } finally {
    await runtime.stop();
  }
}
