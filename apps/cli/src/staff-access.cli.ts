import { AccountError, accountResetLines, roleNames } from '@gatehouse/accounts';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import type { AppConfig } from '@gatehouse/config';
import { StaffAccessService, StaffError, type StaffInvitation } from '@gatehouse/provisioning';
import { CommandError } from './command.js';
import { createProvisioningContext } from './provisioning.context.js';

/** The one place an activation link is shown by the command line: stdout, once, never the logger. */
export function printInvitation(tenant: string, invited: StaffInvitation): string {
  const reset = invited.accountReset
    ? ['The account existed already, without a role. It starts afresh, so that this link is the only way in:', ...accountResetLines(invited.accountReset).map((line) => `  - ${line}`)]
    : [];
  return [
    `${invited.created ? 'Created' : 'Found'} ${invited.username} <${invited.email}> (${roleNames(invited.roles)}) in tenant ${tenant}.`,
    ...reset,
    `Console activation link (use once, before ${invited.expiresAt.toISOString()}):`,
    `  ${invited.activationUrl ?? '(mailed to the person)'}`,
    '',
  ].join('\n');
}

/** On an empty database, `npm start` invites the Administrator `admin` to the console as well. */
export async function inviteFirstAdministrator(config: AppConfig & { databaseUrl: string }, tenantSlug: string): Promise<string> {
  let printed = '';
  await provisioning(config, async (staff) => {
    const tenant = await staff.tenant(tenantSlug);
    const input = { email: 'admin@localhost', role: 'Administrator' as const, username: 'admin', displayName: 'Administrator' };
    printed = printInvitation(tenant.slug, await staff.invite(tenant, SYSTEM_ACTOR, input, 'return'));
  });
  return printed;
}

/** Runs work with the staff use cases; a refusal is printed (exit 1), anything else thrown. */
export async function provisioning(config: AppConfig & { databaseUrl: string }, work: (staff: StaffAccessService) => Promise<void>): Promise<number> {
  const context = await createProvisioningContext(config);
  try {
    await work(context.get(StaffAccessService));
    return 0;
  } catch (error) {
    if (error instanceof StaffError || error instanceof AccountError) throw new CommandError(error.message);
    throw error;
  } finally {
    await context.close();
  }
}
