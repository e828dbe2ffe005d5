import { TOKEN_EXCHANGE_IDENTIFIER } from '@gatehouse/apis';
import type { ApiRow } from '../client-credentials.repository.js';

/**
 * Entra's `api://AzureADTokenExchange`, answered by every tenant without an API row: any enabled
 * client of the tenant may ask for `api://AzureADTokenExchange/.default` and gets a v2 token with
 * `aud: "api://AzureADTokenExchange"` and no roles — good for nothing but proving the client to a
 * federated credential elsewhere (another tenant's, whose issuer is this tenant's
 * `{PUBLIC_URL}/{tenant id}/v2.0` and subject the client's object id). This is how a managed
 * identity gets such a token from Entra; the identifier is reserved, so no tenant can define it.
 */
export function tokenExchangeResource(resource: string): ApiRow | null {
  if (resource.toLowerCase() !== TOKEN_EXCHANGE_IDENTIFIER.toLowerCase()) return null;
  return {
    id: 'token-exchange',
    appId: TOKEN_EXCHANGE_IDENTIFIER,
    identifier: TOKEN_EXCHANGE_IDENTIFIER,
    builtIn: false,
    scopes: [],
    accessTokenVersion: 2,
    accessTokenTyp: 'JWT',
    tokenExchange: true,
  };
}
