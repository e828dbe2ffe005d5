import 'reflect-metadata';
import { createAdminApp } from '../../apps/admin/src/admin.app.js';
import { benchConfig } from './bench-config.js';
import { announceReady, exitOnSignal, requiredEnv } from './protocol.js';

/** The real admin app, as production builds it, for the admin-list scenarios of the scale run. */
const port = Number(requiredEnv('PORT'));
const config = benchConfig({
  databaseUrl: requiredEnv('DATABASE_URL'),
  publicUrl: requiredEnv('PUBLIC_URL'),
  pepper: Buffer.from(requiredEnv('PEPPER'), 'hex'),
  kek: Buffer.from(requiredEnv('KEK'), 'hex'),
});
const app = await createAdminApp({ config });
await app.listen(port, '127.0.0.1');
announceReady();
exitOnSignal(() => app.close());
