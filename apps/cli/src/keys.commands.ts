import type { Command } from './command.js';

const tenantAndJson = { tenant: { type: 'string' as const }, json: { type: 'boolean' as const, default: false } };

/** `keys list` and `keys rollover`: a tenant's token signing keys, and the emergency rollover. */
export const keysCommand: Command = {
  summary: "a tenant's token signing keys",
  subcommands: {
    list: {
      summary: 'list the signing keys: kid, algorithm, state, dates (never key material)',
      usage: '--tenant <slug> [--json]',
      options: tenantAndJson,
      run: async (input) => (input.config(), (await import('./keys.run.js')).listKeys(input)),
    },
    rollover: {
      summary:
        'emergency rollover: a new key signs at once; with --revoke-previous the old key leaves the JWKS at once and every token it signed stops verifying',
      usage: '--tenant <slug> [--revoke-previous] [--json]',
      options: { ...tenantAndJson, 'revoke-previous': { type: 'boolean', default: false } },
      run: async (input) => (input.config(), (await import('./keys.run.js')).rolloverKey(input)),
    },
  },
};
