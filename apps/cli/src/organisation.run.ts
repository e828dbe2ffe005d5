import type { INestApplicationContext } from '@nestjs/common';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { OffboardingService, OrganisationService, type OrganisationView, OrganisationsModule } from '@gatehouse/organisations';
import { CommandError, type CommandInput } from './command.js';
import { withClientsContext } from './credential.run.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function listOrganisations(input: CommandInput): Promise<number> {
  const search = typeof input.values.search === 'string' ? input.values.search : undefined;
  return withOrganisations(input, async (context, tenantId) => {
    const views: OrganisationView[] = [];
    let cursor: string | undefined;
    do {
      const page = await context.get(OrganisationService).list(tenantId, { search, limit: 200, cursor });
      views.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    print(input, views);
    return 0;
  });
}

export function offboardOrganisation(input: CommandInput): Promise<number> {
  return withOrganisations(input, async (context, tenantId) => {
    const id = await resolve(context, tenantId, input.positionals[0]!);
    print(input, [await context.get(OffboardingService).offboard(tenantId, SYSTEM_ACTOR, id)]);
    return 0;
  });
}

export function restoreOrganisation(input: CommandInput): Promise<number> {
  return withOrganisations(input, async (context, tenantId) => {
    const id = await resolve(context, tenantId, input.positionals[0]!);
    print(input, [await context.get(OffboardingService).restore(tenantId, SYSTEM_ACTOR, id)]);
    return 0;
  });
}

function withOrganisations(input: CommandInput, work: (context: INestApplicationContext, tenantId: string) => Promise<number>): Promise<number> {
  return withClientsContext(input, work, [OrganisationsModule]);
}

/** An id, or a name matched exactly (any case); several or none is an error naming what was found. */
async function resolve(context: INestApplicationContext, tenantId: string, named: string): Promise<string> {
  if (UUID.test(named)) return named;
  const page = await context.get(OrganisationService).list(tenantId, { search: named, limit: 200 });
  const exact = page.items.filter((o) => o.name.toLowerCase() === named.toLowerCase());
  if (exact.length === 1) return exact[0]!.id;
  if (exact.length > 1) throw new CommandError(`${exact.length} organisations are named "${named}": give the id (${exact.map((o) => o.id).join(', ')}).`);
  const near = page.items.map((o) => o.name).slice(0, 5);
  throw new CommandError(`No organisation named "${named}"${near.length ? ` (names holding it: ${near.join(', ')})` : ''}. See: organisation list --tenant <slug>.`);
}

function print(input: CommandInput, views: OrganisationView[]): void {
  if (input.values.json === true) return input.out(`${JSON.stringify(views, null, 2)}\n`);
  const counts = (v: OrganisationView) =>
    v.offboarding ? `  (${v.offboarding.usersDisabled} people, ${v.offboarding.clientsDisabled} clients disabled)` : '';
  input.out(views.map((v) => `${v.id}  ${v.state.padEnd(10)}  ${v.name}${counts(v)}\n`).join(''));
}
