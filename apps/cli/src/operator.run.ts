import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Role } from '@gatehouse/accounts';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { usernameFromEmail } from '@gatehouse/provisioning';
import { CreateUserDto } from '../../admin/src/dto/users.dto.js';
import { type CommandInput, UsageError, requiredOption } from './command.js';
import { withDatabase } from './database.run.js';
import { printInvitation, provisioning } from './staff-access.cli.js';

/** `operator invite`: validated like `POST /users`, then the staff use case; the link on stdout, once. */
export async function invite(input: CommandInput): Promise<number> {
  const tenant = requiredOption(input, 'tenant');
  const email = requiredOption(input, 'email');
  const role = requiredOption(input, 'role') as Role;
  const username = optional(input, 'username') ?? usernameFromEmail(email);
  const person = { username, email, displayName: optional(input, 'display-name') ?? username, roles: [role] };
  const problems = await validate(plainToInstance(CreateUserDto, person));
  if (problems.length) {
    throw new UsageError(problems.map((p) => `--${optionOf(p.property)}: ${Object.values(p.constraints ?? {})[0]}`).join('; '));
  }
  return withDatabase(input, (config) =>
    provisioning(config, async (staff) => {
      const found = await staff.tenant(tenant);
      const invited = await staff.invite(found, SYSTEM_ACTOR, { ...person, role }, 'return');
      input.out(
        input.values.json === true
          ? `${JSON.stringify({ tenant: found.slug, ...invited }, null, 2)}\n`
          : printInvitation(found.slug, invited),
      );
    }),
  );
}

/** `operator reset-mfa`: the break-glass path when a person lost every second factor. */
export function resetMfa(input: CommandInput): Promise<number> {
  const tenant = requiredOption(input, 'tenant');
  const username = requiredOption(input, 'username');
  return withDatabase(input, (config) =>
    provisioning(config, async (staff) => {
      await staff.resetSecondFactorByUsername(tenant, username);
      input.out(
        `Removed the second factors of ${username} in tenant ${tenant} and ended their sessions.\n` +
          'They set up an authenticator app again at their next console sign-in.\n',
      );
    }),
  );
}

function optional(input: CommandInput, name: string): string | undefined {
  const value = input.values[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function optionOf(property: string): string {
  return property === 'displayName' ? 'display-name' : property === 'roles' ? 'role' : property;
}
