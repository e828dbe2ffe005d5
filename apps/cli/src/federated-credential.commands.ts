import type { Command } from './command.js';

const tenantAndJson = { tenant: { type: 'string' as const }, json: { type: 'boolean' as const, default: false } };
const run = () => import('./federated-credential.run.js');

/** `federated-credential add|list|remove`: which external tokens a client may present (DESIGN §11). */
export const federatedCredentialCommand: Command = {
  summary: 'federated credentials of a client (tokens of GitHub Actions, Kubernetes, another tenant…)',
  subcommands: {
    add: {
      summary: 'trust tokens of an issuer: an exact --subject, or an --expression of Entra’s language',
      usage:
        '--tenant <slug> <clientId> --name <name> --issuer <https URL> (--subject <sub> | --expression "<claims[…] matches …>") [--audience <a>[,<b>]] [--description <text>] [--json]',
      options: {
        ...tenantAndJson,
        name: { type: 'string' },
        issuer: { type: 'string' },
        subject: { type: 'string' },
        expression: { type: 'string' },
        audience: { type: 'string' },
        description: { type: 'string' },
      },
      positionals: { min: 1, max: 1 },
      run: async (input) => (input.config(), (await run()).addFederatedCredential(input)),
    },
    list: {
      summary: "list a client's federated credentials",
      usage: '--tenant <slug> <clientId> [--json]',
      options: tenantAndJson,
      positionals: { min: 1, max: 1 },
      run: async (input) => (input.config(), (await run()).listFederatedCredentials(input)),
    },
    remove: {
      summary: 'remove one federated credential of a client',
      usage: '--tenant <slug> <clientId> <id>',
      options: { tenant: { type: 'string' } },
      positionals: { min: 2, max: 2 },
      run: async (input) => (input.config(), (await run()).removeFederatedCredential(input)),
    },
  },
};
