import type { Command } from './command.js';

/** The roles of the image: one app per process, until SIGTERM. Each loads only when it runs. */
export const identityCommand: Command = {
  summary: 'run the identity app (token endpoint, discovery, Web UI) on PORT',
  run: async (input) => (input.config(), (await import('./serve.run.js')).serve('identity', input)),
};

export const adminCommand: Command = {
  summary: 'run the admin app (/admin/v1, console) on ADMIN_PORT',
  run: async (input) => (input.config(), (await import('./serve.run.js')).serve('admin', input)),
};

export const workerCommand: Command = {
  summary: 'run the worker (outbox delivery, sweeps, key rotation)',
  run: async (input) => (input.config(), (await import('./serve.run.js')).serve('worker', input)),
};

export const startCommand: Command = {
  summary: 'run identity, admin and worker in one process (one machine; embedded Postgres without DATABASE_URL)',
  run: async (input) => (input.config(), (await import('./start.run.js')).start(input)),
};
