import type { Command } from './command.js';

const run = () => import('./credential-policy.run.js');

/** `credential-policy show|set`: the tenant's credential policy (DESIGN §12), as `GET|PUT /admin/v1/credential-policy`. */
export const credentialPolicyCommand: Command = {
  summary: "the tenant's credential policy: lifetimes, allowed kinds, stale credentials",
  subcommands: {
    show: {
      summary: 'print the policy in effect',
      usage: '--tenant <slug> [--json]',
      options: { tenant: { type: 'string' }, json: { type: 'boolean', default: false } },
      run: async (input) => (input.config(), (await run()).showPolicy(input)),
    },
    set: {
      summary: 'change the named rules (in effect from now unless --effective-from); the others stay as they are',
      usage:
        '--tenant <slug> [--max-secret-days <n>] [--max-certificate-days <n|none>] [--kinds secret,certificate,federated] ' +
        '[--effective-from <ISO date>] [--stale-days <n>] [--disable-stale true|false] [--json]',
      options: {
        tenant: { type: 'string' },
        json: { type: 'boolean', default: false },
        'max-secret-days': { type: 'string' },
        'max-certificate-days': { type: 'string' },
        kinds: { type: 'string' },
        'effective-from': { type: 'string' },
        'stale-days': { type: 'string' },
        'disable-stale': { type: 'string' },
      },
      run: async (input) => (input.config(), (await run()).setPolicy(input)),
    },
  },
};
