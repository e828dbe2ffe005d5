import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { type CredentialPolicyInput, CredentialPolicyService, type CredentialPolicyView } from '@gatehouse/clients';
import { type CommandInput, UsageError } from './command.js';
import { withClientsContext } from './credential.run.js';

export function showPolicy(input: CommandInput): Promise<number> {
  return withClientsContext(input, async (context, tenantId) => {
    print(input, await context.get(CredentialPolicyService).get(tenantId));
    return 0;
  });
}

/** The policy in effect with the named rules changed; the service refuses a bad one, naming the rule. */
export function setPolicy(input: CommandInput): Promise<number> {
  const changes = changesOf(input);
  if (Object.keys(changes).length === 0) throw new UsageError('name at least one rule to change (see --help)');
  return withClientsContext(input, async (context, tenantId) => {
    const policies = context.get(CredentialPolicyService);
    const { effectiveFrom: _keptOnlyIfNamed, ...current } = await policies.get(tenantId);
    print(input, await policies.update(tenantId, SYSTEM_ACTOR, { ...current, ...changes }));
    return 0;
  });
}

function changesOf(input: CommandInput): CredentialPolicyInput {
  const option = (name: string) => (typeof input.values[name] === 'string' ? (input.values[name] as string) : undefined);
  const number = (name: string) => {
    const value = option(name);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number of days, not "${value}"`);
    return Number(value);
  };
  const changes: CredentialPolicyInput = {};
  if (option('max-secret-days') !== undefined) changes.maxSecretLifetimeDays = number('max-secret-days');
  const certificate = option('max-certificate-days');
  if (certificate !== undefined) changes.maxCertificateLifetimeDays = certificate === 'none' ? null : number('max-certificate-days');
  if (option('kinds') !== undefined) changes.allowedCredentialKinds = option('kinds')!.split(',').map((k) => k.trim());
  if (option('effective-from') !== undefined) changes.effectiveFrom = option('effective-from');
  if (option('stale-days') !== undefined) changes.staleCredentialDays = number('stale-days');
  const disable = option('disable-stale');
  if (disable !== undefined) {
    if (disable !== 'true' && disable !== 'false') throw new UsageError(`--disable-stale takes true or false, not "${disable}"`);
    changes.disableStaleCredentials = disable === 'true';
  }
  return changes;
}

function print(input: CommandInput, view: CredentialPolicyView): void {
  if (input.values.json === true) return input.out(`${JSON.stringify(view, null, 2)}\n`);
  input.out(
    [
      `maximum secret lifetime       ${view.maxSecretLifetimeDays} days`,
      `maximum certificate lifetime  ${view.maxCertificateLifetimeDays === null ? 'none' : `${view.maxCertificateLifetimeDays} days`}`,
      `allowed credential kinds      ${view.allowedCredentialKinds.join(', ')}`,
      `in effect from                ${view.effectiveFrom ?? 'always (no policy set: the defaults)'}`,
      `stale after                   ${view.staleCredentialDays} days unused`,
      `disable stale credentials     ${view.disableStaleCredentials ? 'yes' : 'no'}`,
    ].join('\n') + '\n',
  );
}
