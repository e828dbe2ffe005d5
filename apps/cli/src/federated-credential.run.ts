import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { FederatedCredentialService, type FederatedCredentialView } from '@gatehouse/clients';
import { type CommandInput, UsageError, requiredOption } from './command.js';
import { withClientsContext } from './credential.run.js';

const text = (input: CommandInput, name: string): string | undefined => {
  const value = input.values[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** `federated-credential add`: exactly one of --subject and --expression (the service checks the rest). */
export function addFederatedCredential(input: CommandInput): Promise<number> {
  const subject = text(input, 'subject');
  const expression = text(input, 'expression');
  if ((subject === undefined) === (expression === undefined)) throw new UsageError('give exactly one of --subject and --expression');
  const audiences = text(input, 'audience')?.split(',').map((a) => a.trim());
  const body = {
    name: requiredOption(input, 'name'),
    issuer: requiredOption(input, 'issuer'),
    subject,
    claimsMatchingExpression: expression === undefined ? undefined : { value: expression, languageVersion: 1 },
    audiences,
    description: text(input, 'description'),
  };
  return withClientsContext(input, async (context, tenantId) => {
    const added = await context.get(FederatedCredentialService).add(tenantId, SYSTEM_ACTOR, input.positionals[0]!, body);
    print(input, [added]);
    return 0;
  });
}

export function listFederatedCredentials(input: CommandInput): Promise<number> {
  return withClientsContext(input, async (context, tenantId) => {
    print(input, await context.get(FederatedCredentialService).list(tenantId, input.positionals[0]!));
    return 0;
  });
}

export function removeFederatedCredential(input: CommandInput): Promise<number> {
  const [clientId, id] = input.positionals as [string, string];
  return withClientsContext(input, async (context, tenantId) => {
    await context.get(FederatedCredentialService).remove(tenantId, SYSTEM_ACTOR, clientId, id);
    input.out(`removed federated credential ${id}\n`);
    return 0;
  });
}

function print(input: CommandInput, views: FederatedCredentialView[]): void {
  if (input.values.json === true) return input.out(`${JSON.stringify(views, null, 2)}\n`);
  const matcher = (v: FederatedCredentialView) => v.subject ?? `expression ${v.claimsMatchingExpression!.value}`;
  input.out(views.map((v) => `${v.id}  ${v.name}  ${v.issuer}  ${matcher(v)}  aud ${v.audiences.join(',')}\n`).join(''));
}
