import type { Command } from './command.js';
import { certificateCommand, secretCommand } from './credential.commands.js';
import { bootstrapCommand, migrateCommand } from './database.commands.js';
import { demoCommand } from './demo.commands.js';
import { federatedCredentialCommand } from './federated-credential.commands.js';
import { keysCommand } from './keys.commands.js';
import { operatorCommand } from './operator.commands.js';
import { organisationCommand } from './organisation.commands.js';
import { credentialPolicyCommand } from './credential-policy.commands.js';
import { adminCommand, identityCommand, startCommand, workerCommand } from './serve.commands.js';

/**
 * Every CLI command, by name: a new command is its own file plus one line here. Commands with
 * subcommands (`operator invite`) carry them in their own `subcommands` table.
 */
export const COMMANDS: Record<string, Command> = {
  migrate: migrateCommand,
  bootstrap: bootstrapCommand,
  start: startCommand,
  demo: demoCommand,
  identity: identityCommand,
  admin: adminCommand,
  worker: workerCommand,
  secret: secretCommand,
  certificate: certificateCommand,
  'federated-credential': federatedCredentialCommand,
  operator: operatorCommand,
  organisation: organisationCommand,
  'credential-policy': credentialPolicyCommand,
  keys: keysCommand,
};
