import { ROLES } from '@gatehouse/accounts';
import type { Command } from './command.js';

/** `operator invite` and `operator reset-mfa`: console staff from the command line. */
export const operatorCommand: Command = {
  summary: 'console staff',
  subcommands: {
    invite: {
      summary:
        'create (or find) a staff member and print a one-time console activation link (72 h) where they choose a password and set up an authenticator app',
      usage: `--tenant <slug> --email <address> --role <${ROLES.join('|')}> [--username <name>] [--display-name <name>] [--json]`,
      options: {
        tenant: { type: 'string' },
        email: { type: 'string' },
        role: { type: 'string' },
        username: { type: 'string' },
        'display-name': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      run: async (input) => (input.config(), (await import('./operator.run.js')).invite(input)),
    },
    'reset-mfa': {
      summary: "break-glass: remove a person's second factors and end their sessions (audited)",
      usage: '--tenant <slug> --username <name>',
      options: { tenant: { type: 'string' }, username: { type: 'string' } },
      run: async (input) => (input.config(), (await import('./operator.run.js')).resetMfa(input)),
    },
  },
};
