import type { AppConfig } from '@gatehouse/config';
import { type AppRole, runApps } from '@gatehouse/http';
import { adminRole } from '../../admin/src/admin-role.js';
import { identityRole } from '../../identity/src/identity-role.js';
import { workerRole } from '../../worker/src/worker-role.js';
import { type CommandInput, CommandError } from './command.js';

const ROLES: Record<'identity' | 'admin' | 'worker', (config: AppConfig) => AppRole> = {
  identity: identityRole,
  admin: adminRole,
  worker: (config) => workerRole(config),
};

/** Runs one app in this process until SIGTERM (the image's roles). */
export async function serve(name: keyof typeof ROLES, input: CommandInput): Promise<number> {
  const config = input.config();
  if (!config.databaseUrl) {
    throw new CommandError(
      `DATABASE_URL is required to run the ${name} app on its own (the embedded Postgres is only for \`start\`).`,
    );
  }
  return runApps(config, [ROLES[name](config)], { log: input.log });
}
