import { devTlsNotice, runApps } from '@gatehouse/http';
import { migrateDatabase } from '@gatehouse/schema';
import { adminRole } from '../../admin/src/admin-role.js';
import { identityRole } from '../../identity/src/identity-role.js';
import { workerRole } from '../../worker/src/worker-role.js';
import { bootstrapTenant, isDatabaseEmpty, writeBootstrapFile } from './bootstrap.command.js';
import type { CommandInput } from './command.js';
import { type DatabaseRuntime, resolveDatabase } from './database-runtime.js';
import { readyBox } from './ready-box.js';
import { inviteFirstAdministrator } from './staff-access.cli.js';

export const DEFAULT_TENANT = 'default';

/**
 * `npm start`: identity (PORT), admin (ADMIN_PORT) and the worker in one process, for one
 * machine, with the embedded Postgres when DATABASE_URL is unset. On an empty database it
 * bootstraps tenant `default` first; the credentials are printed last, once every app is ready.
 */
export async function start(input: CommandInput): Promise<number> {
  const runtime = await resolveDatabase(input.config(), input.log);
  const bootstrapped = await orStop(runtime, () => prepare(runtime, input.log));
  return serveAll(runtime, input, () => readyBox(runtime.config, DEFAULT_TENANT, bootstrapped));
}

/** The work's answer; when it fails, an embedded database is stopped before the error goes on. */
export async function orStop<T>(runtime: DatabaseRuntime, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await runtime.stop().catch(() => undefined);
    throw error;
  }
}

/** Identity, admin and worker in this process until SIGTERM; `banner` is printed once every app is ready. */
export function serveAll(runtime: DatabaseRuntime, input: CommandInput, banner: () => string): Promise<number> {
  const config = runtime.config;
  return runApps(config, [identityRole(config), adminRole(config), workerRole(config)], {
    log: input.log,
    afterStart: () => input.out(banner() + (config.devTls ? devTlsNotice(config.dataDir) : '')),
    afterStop: () => runtime.stop(),
  });
}

async function prepare(runtime: DatabaseRuntime, log: (line: string) => void) {
  const applied = await migrateDatabase(runtime.config.databaseUrl);
  if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
  if (!(await isDatabaseEmpty(runtime.config))) return undefined;
  const result = await bootstrapTenant(runtime.config, DEFAULT_TENANT, false);
  const file = writeBootstrapFile(runtime.config.dataDir, result);
  return { result, file, administrator: await inviteFirstAdministrator(runtime.config, DEFAULT_TENANT) };
}
