import type { Command } from './command.js';

const tenantAndJson = { tenant: { type: 'string' as const }, json: { type: 'boolean' as const, default: false } };
const run = () => import('./organisation.run.js');

/** `organisation list|offboard|restore`: partner organisations, and the one action that ends a contract (DESIGN §12). */
export const organisationCommand: Command = {
  summary: 'partner organisations: list them, offboard one (everything of it disabled, its links revoked), restore it',
  subcommands: {
    list: {
      summary: 'list the organisations, optionally those whose name holds --search',
      usage: '--tenant <slug> [--search <text>] [--json]',
      options: { ...tenantAndJson, search: { type: 'string' } },
      run: async (input) => (input.config(), (await run()).listOrganisations(input)),
    },
    offboard: {
      summary: 'disable its people and clients, revoke pending invitations and handovers, end sessions (one audited step)',
      usage: '--tenant <slug> <organisation id or exact name> [--json]',
      options: tenantAndJson,
      positionals: { min: 1, max: 1 },
      run: async (input) => (input.config(), (await run()).offboardOrganisation(input)),
    },
    restore: {
      summary: 'bring back what the offboarding disabled (revoked links stay revoked: send new ones)',
      usage: '--tenant <slug> <organisation id or exact name> [--json]',
      options: tenantAndJson,
      positionals: { min: 1, max: 1 },
      run: async (input) => (input.config(), (await run()).restoreOrganisation(input)),
    },
  },
};
