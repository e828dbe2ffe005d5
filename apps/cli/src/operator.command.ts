import { parseArgs } from 'node:util';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ROLES, type Role } from '@gatehouse/accounts';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import type { AppConfig } from '@gatehouse/config';
import { usernameFromEmail } from '@gatehouse/provisioning';
import { CreateUserDto } from '../../admin/src/dto/users.dto.js';
import { withDatabase } from './commands.js';
import { printInvitation, provisioning } from './staff-access.cli.js';

export const OPERATOR_USAGE = `Usage:
  npm run cli -- operator invite --tenant <slug> --email <address> --role <${ROLES.join('|')}>
                                 [--username <name>] [--display-name <name>] [--json]
      creates (or finds) the staff member and prints a one-time console activation link (72 h),
      where they choose a password and set up an authenticator app
  npm run cli -- operator reset-mfa --tenant <slug> --username <name>
      break-glass: removes the person's second factors and ends their sessions (audited)
`;

const OPTIONS = {
  tenant: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  username: { type: 'string' },
  'display-name': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const err = (line: string) => process.stderr.write(`${line}\n`);

/** `operator invite` and `operator reset-mfa`: parses, calls the provisioning use case, prints. */
export async function runOperatorCommand(args: string[], config: AppConfig): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    err(`${error instanceof Error ? error.message : String(error)}\n\n${OPERATOR_USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (values.help) {
    process.stdout.write(OPERATOR_USAGE);
    return 0;
  }
  const [sub, ...extra] = positionals;
  if (extra.length || (sub !== 'invite' && sub !== 'reset-mfa')) {
    err(`Unknown operator command "${positionals.join(' ')}".\n\n${OPERATOR_USAGE}`);
    return 2;
  }
  return sub === 'invite' ? invite(config, values) : resetMfa(config, values);
}

type Values = { tenant?: string; email?: string; role?: string; username?: string; 'display-name'?: string; json?: boolean };

async function invite(config: AppConfig, values: Values): Promise<number> {
  if (!values.tenant || !values.email || !values.role) {
    err(`operator invite needs --tenant, --email and --role.\n\n${OPERATOR_USAGE}`);
    return 2;
  }
  const input = {
    username: values.username ?? usernameFromEmail(values.email),
    email: values.email,
    displayName: values['display-name'] ?? values.username ?? usernameFromEmail(values.email),
    roles: [values.role as Role],
  };
  const problems = await validate(plainToInstance(CreateUserDto, input));
  if (problems.length) {
    err(problems.map((p) => `--${optionOf(p.property)}: ${Object.values(p.constraints ?? {})[0]}`).join('\n'));
    return 2;
  }
  return withDatabase(config, (databaseConfig) =>
    provisioning(databaseConfig, async (staff) => {
      const tenant = await staff.tenant(values.tenant!);
      const invited = await staff.invite(tenant, SYSTEM_ACTOR, { ...input, role: values.role as Role }, 'return');
      process.stdout.write(values.json ? `${JSON.stringify({ tenant: tenant.slug, ...invited }, null, 2)}\n` : printInvitation(tenant.slug, invited));
    }),
  );
}

async function resetMfa(config: AppConfig, values: Values): Promise<number> {
  if (!values.tenant || !values.username) {
    err(`operator reset-mfa needs --tenant and --username.\n\n${OPERATOR_USAGE}`);
    return 2;
  }
  return withDatabase(config, (databaseConfig) =>
    provisioning(databaseConfig, async (staff) => {
      await staff.resetSecondFactorByUsername(values.tenant!, values.username!);
      process.stdout.write(
        `Removed the second factors of ${values.username} in tenant ${values.tenant} and ended their sessions.\n` +
          'They set up an authenticator app again at their next console sign-in.\n',
      );
    }),
  );
}

function optionOf(property: string): string {
  return property === 'displayName' ? 'display-name' : property === 'roles' ? 'role' : property;
}
