import type { INestApplicationContext } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';
import { devTlsNotice } from '@gatehouse/http';
import { migrateDatabase } from '@gatehouse/schema';
import { createAdminApp } from '../../admin/src/admin.app.js';
import { createIdentityApp } from '../../identity/src/identity.app.js';
import { createWorker } from '../../worker/src/worker.app.js';
import { bootstrapTenant, isDatabaseEmpty, printBootstrap, writeBootstrapFile } from './bootstrap.command.js';
import { type DatabaseRuntime, resolveDatabase } from './database-runtime.js';
import { inviteFirstAdministrator } from './staff-access.cli.js';

export const DEFAULT_TENANT = 'default';

/**
 * `npm start`: identity (PORT), admin (ADMIN_PORT) and the worker in one process, for one
 * machine. On an empty database it bootstraps tenant `default` first. Production runs each app
 * as its own process instead.
 */
export async function startAll(config: AppConfig, log: (line: string) => void): Promise<void> {
  let runtime: DatabaseRuntime | undefined;
  const running: INestApplicationContext[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const app of running.reverse()) await app.close().catch(() => undefined);
    await runtime?.stop().catch(() => undefined);
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  try {
    runtime = await resolveDatabase(config, log);
    const applied = await migrateDatabase(runtime.config.databaseUrl);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
    if (await isDatabaseEmpty(runtime.config)) {
      const result = await bootstrapTenant(runtime.config, DEFAULT_TENANT, false);
      const file = writeBootstrapFile(runtime.config.dataDir, result);
      process.stdout.write(`Bootstrapped tenant "${DEFAULT_TENANT}"; credentials also written to ${file}\n`);
      process.stdout.write(printBootstrap(result, false));
      process.stdout.write(`\nConsole sign-in for the Administrator:\n${await inviteFirstAdministrator(runtime.config, DEFAULT_TENANT)}`);
    }
    const identity = await createIdentityApp({ config: runtime.config });
    running.push(identity);
    await identity.listen(runtime.config.port);
    log(`identity listening on port ${runtime.config.port} (${runtime.config.publicUrl})`);
    if (runtime.config.devTls) process.stdout.write(devTlsNotice(runtime.config.dataDir));
    const admin = await createAdminApp({ config: runtime.config });
    running.push(admin);
    await admin.listen(runtime.config.adminPort);
    log(`admin listening on port ${runtime.config.adminPort} (/admin/v1, /admin/docs)`);
    running.push(await createWorker({ config: runtime.config }));
    log('worker running');
  } catch (error) {
    log(`start failed: ${error instanceof Error ? error.message : String(error)}`);
    await stop(1);
  }
}
