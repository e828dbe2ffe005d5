import 'reflect-metadata';
import { ConfigError, loadConfig } from '@gatehouse/config';
import { createAdminApp } from './admin.app.js';

/** The admin API as its own process (production). It needs an external Postgres. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  if (!config.databaseUrl) {
    console.error('DATABASE_URL is required to run the admin app on its own (the embedded Postgres is for `npm start`).');
    process.exit(1);
  }
  const app = await createAdminApp({ config });
  app.enableShutdownHooks();
  await app.listen(config.adminPort);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
