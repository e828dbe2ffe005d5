import 'reflect-metadata';
import { ConfigError, loadConfig } from '@gatehouse/config';
import { createIdentityApp } from './identity.app.js';

/** Runs the identity app alone (production: one process per app, any number of replicas). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (!config.databaseUrl) {
    console.error(
      'DATABASE_URL is required to run the identity app on its own. ' +
        '(The embedded Postgres is only for `npm start`, which runs every app in one process.)',
    );
    process.exit(1);
  }
  const app = await createIdentityApp({ config });
  app.enableShutdownHooks();
  await app.listen(config.port);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
