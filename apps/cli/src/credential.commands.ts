import type { Command } from './command.js';

const tenantAndJson = { tenant: { type: 'string' as const }, json: { type: 'boolean' as const, default: false } };

/** `secret check <value>`: says offline whether a value is a well-formed Gatehouse secret. */
export const secretCommand: Command = {
  summary: 'client secrets',
  subcommands: {
    check: {
      summary: 'say offline whether a value is a well-formed Gatehouse client secret (exit 1 when not)',
      usage: '<value>',
      positionals: { min: 1, max: 1 },
      run: async (input) => (await import('./credential.run.js')).checkSecret(input),
    },
  },
};

/** `certificate add|list|remove`: certificate credentials of a client (the public certificate only). */
export const certificateCommand: Command = {
  summary: 'certificate credentials of a client',
  subcommands: {
    add: {
      summary: 'register a client certificate (PEM, public certificate only)',
      usage: '--tenant <slug> <clientId> <certificate.pem> [display name] [--json]',
      options: tenantAndJson,
      positionals: { min: 2, max: 3 },
      run: async (input) => (input.config(), (await import('./credential.run.js')).addCertificate(input)),
    },
    list: {
      summary: "list a client's certificates",
      usage: '--tenant <slug> <clientId> [--json]',
      options: tenantAndJson,
      positionals: { min: 1, max: 1 },
      run: async (input) => (input.config(), (await import('./credential.run.js')).listCertificates(input)),
    },
    remove: {
      summary: 'remove one certificate of a client',
      usage: '--tenant <slug> <clientId> <keyId>',
      options: { tenant: { type: 'string' } },
      positionals: { min: 2, max: 2 },
      run: async (input) => (input.config(), (await import('./credential.run.js')).removeCertificate(input)),
    },
  },
};
