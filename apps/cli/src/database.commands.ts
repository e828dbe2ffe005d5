import type { Command } from './command.js';

/** Commands on the database; their work loads only when they run (usage errors answer at once). */
export const migrateCommand: Command = {
  summary: 'apply pending migrations (DATABASE_URL, or the embedded Postgres under DATA_DIR)',
  run: async (input) => (input.config(), (await import('./database.run.js')).migrate(input)),
};

export const bootstrapCommand: Command = {
  summary:
    "create a tenant with its admin API, an Administrator operator and that operator's client; prints the secret once",
  usage: '--tenant <slug> [--display-name <name>] [--algorithm RS256|ES256] [--json] [--rotate-secret]',
  options: {
    tenant: { type: 'string' },
    'display-name': { type: 'string' },
    algorithm: { type: 'string' },
    json: { type: 'boolean', default: false },
    'rotate-secret': { type: 'boolean', default: false },
  },
  run: async (input) => (input.config(), (await import('./database.run.js')).bootstrap(input)),
};
