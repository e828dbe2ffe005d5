import type { AppConfig } from '@gatehouse/config';
import { migrateDatabase } from '@gatehouse/schema';
import { SIGNING_ALGORITHMS, type SigningAlgorithm } from '@gatehouse/tenants';
import { bootstrapTenant, printBootstrap } from './bootstrap.command.js';
import { type CommandInput, UsageError, requiredOption } from './command.js';
import { resolveDatabase } from './database-runtime.js';

/** `migrate`: applies pending migrations. */
export function migrate(input: CommandInput): Promise<number> {
  return withDatabase(input, async () => 0);
}

/** `bootstrap`: the tenant, its admin API and first Administrator client; prints the secret once. */
export function bootstrap(input: CommandInput): Promise<number> {
  const tenant = requiredOption(input, 'tenant');
  const algorithm = input.values.algorithm;
  if (algorithm !== undefined && !(SIGNING_ALGORITHMS as readonly unknown[]).includes(algorithm)) {
    throw new UsageError(`--algorithm must be one of ${SIGNING_ALGORITHMS.join(', ')}`);
  }
  return withDatabase(input, async (config) => {
    const result = await bootstrapTenant(
      config,
      tenant,
      input.values['rotate-secret'] === true,
      algorithm as SigningAlgorithm | undefined,
      typeof input.values['display-name'] === 'string' ? input.values['display-name'] : undefined,
    );
    input.out(printBootstrap(result, input.values.json === true));
    return 0;
  });
}

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
