import type { AppConfig } from '@gatehouse/config';
import { type AppRole, runApps } from '@gatehouse/http';
import { adminRole } from '../../admin/src/admin-role.js';
import { identityRole } from '../../identity/src/identity-role.js';
import { workerRole } from '../../worker/src/worker-role.js';
import { type Command, CommandError } from './command.js';

/** A command that runs one app in this process until SIGTERM (the image's roles). */
function serve(name: string, summary: string, role: (config: AppConfig) => AppRole): Command {
  return {
    summary,
    run: async (input) => {
      const config = input.config();
      if (!config.databaseUrl) {
        throw new CommandError(
          `DATABASE_URL is required to run the ${name} app on its own (the embedded Postgres is only for \`start\`).`,
        );
      }
      return runApps(config, [role(config)], { log: input.log });
    },
  };
}

export const identityCommand = serve('identity', 'run the identity app (token endpoint, discovery, Web UI) on PORT', identityRole);
export const adminCommand = serve('admin', 'run the admin app (/admin/v1, console) on ADMIN_PORT', adminRole);
export const workerCommand = serve('worker', 'run the worker (outbox delivery, sweeps, key rotation)', (config) => workerRole(config));
