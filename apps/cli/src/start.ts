import type { INestApplication } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';
import { migrateDatabase } from '@gatehouse/schema';
import { createIdentityApp } from '../../identity/src/identity.app.js';
import { resolveDatabase } from './database-runtime.js';

/**
 * `npm start`: identity (PORT) and admin (ADMIN_PORT) and the worker in one process, for one
 * machine. Production runs each app as its own process instead.
 */
export async function startAll(config: AppConfig, log: (line: string) => void): Promise<void> {
  const runtime = await resolveDatabase(config, log);
  const applied = await migrateDatabase(runtime.config.databaseUrl);
  if (applied.length) log(`applied migrations: ${applied.join(', ')}`);

  const apps: INestApplication[] = [];
  const identity = await createIdentityApp({ config: runtime.config });
  await identity.listen(runtime.config.port);
  apps.push(identity);
  log(`identity listening on ${runtime.config.publicUrl} (port ${runtime.config.port})`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const app of apps.reverse()) await app.close();
    await runtime.stop();
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
