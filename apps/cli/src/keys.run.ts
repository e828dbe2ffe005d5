import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { TenantService } from '@gatehouse/tenants';
import { type RolloverResult, SigningKeyAdminService, type SigningKeyView } from '@gatehouse/tokens';
import { CommandError, type CommandInput, requiredOption } from './command.js';
import { withDatabase } from './database.run.js';
import { createProvisioningContext } from './provisioning.context.js';

/** `keys list`: one line per key, newest first (or the REST answer's JSON). */
export function listKeys(input: CommandInput): Promise<number> {
  return withKeys(input, async (keys, tenantId) => {
    const list = await keys.list(tenantId);
    input.out(input.values.json === true ? `${JSON.stringify(list, null, 2)}\n` : list.keys.map(keyLine).join(''));
  });
}

/** `keys rollover`: the emergency rollover, audited as the system's act from the command line. */
export function rolloverKey(input: CommandInput): Promise<number> {
  const revokePrevious = input.values['revoke-previous'] === true;
  return withKeys(input, async (keys, tenantId, slug) => {
    const result = await keys.rollover(tenantId, SYSTEM_ACTOR, { revokePrevious });
    input.out(input.values.json === true ? `${JSON.stringify(result, null, 2)}\n` : rolloverText(slug, result));
  });
}

function keyLine(key: SigningKeyView): string {
  const until = key.publishedUntil ? `  until ${key.publishedUntil}` : '';
  return `${key.kid}  ${key.algorithm}  ${key.status}${key.published ? ' (published)' : ''}  created ${key.createdAt}${until}\n`;
}

function rolloverText(slug: string, result: RolloverResult): string {
  const lines = [`Key ${result.kid} (${result.algorithm}) signs the tokens of tenant ${slug} from now on.`];
  const previous = result.previous;
  if (!previous) lines.push('There was no key before it.');
  else if (result.revokedPrevious) {
    lines.push(`The previous key ${previous.kid} is revoked: it left the JWKS, and every token it signed no longer verifies.`);
    lines.push('Clients get new tokens at their next token request.');
  } else {
    lines.push(`The previous key ${previous.kid} stays published until ${previous.publishedUntil}, so tokens it signed verify until they expire.`);
    lines.push('If that key leaked, run this again with --revoke-previous.');
  }
  return `${lines.join('\n')}\n`;
}

/** The tenant named by --tenant and the key use cases, on a migrated database. */
function withKeys(
  input: CommandInput,
  work: (keys: SigningKeyAdminService, tenantId: string, slug: string) => Promise<void>,
): Promise<number> {
  const tenant = requiredOption(input, 'tenant');
  return withDatabase(input, async (config) => {
    const context = await createProvisioningContext(config);
    try {
      const found = await context.get(TenantService).findByIdOrSlug(tenant);
      if (!found) throw new CommandError(`No tenant "${tenant}".`);
      await work(context.get(SigningKeyAdminService), found.id, found.slug);
      return 0;
    } finally {
      await context.close();
    }
  });
}
