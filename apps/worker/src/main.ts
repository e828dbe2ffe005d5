import 'reflect-metadata';
import { ConfigError, loadConfig } from '@gatehouse/config';
import { createWorker } from './worker.app.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  if (!config.databaseUrl) throw new ConfigError(['DATABASE_URL is required to run the worker on its own']);
  const worker = await createWorker({ config });
  worker.enableShutdownHooks();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
