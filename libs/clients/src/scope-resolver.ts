import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiRepository, type ApiScope } from '@gatehouse/apis';
import { ClientError, ClientErrorCode } from './client.errors.js';

/**
 * Turns `{resource}/{scope}` strings (resource = identifier URI or app id; `.default` = every scope
 * of that API) into scope rows. Unknown ones fail together; the admin API's scopes never resolve.
 */
@Injectable()
export class ScopeResolver {
  constructor(private readonly apis: ApiRepository) {}

  async resolve(em: EntityManager, tenantId: string, requested: string[]): Promise<ApiScope[]> {
    const unknown: string[] = [];
    const found = new Map<string, ApiScope>();
    for (const text of [...new Set(requested)]) {
      const cut = text.lastIndexOf('/');
      const resource = cut > 0 ? text.slice(0, cut) : '';
      const value = cut > 0 ? text.slice(cut + 1) : '';
      const api = resource && value ? await this.apis.findByReference(em, tenantId, resource) : null;
      if (api?.builtIn) {
        throw new ClientError(ClientErrorCode.AdminScopesNotAssignable, 'Admin API scopes come only with roles.', [text]);
      }
      const scopes = api ? await this.apis.scopesOf([api.id], em) : [];
      const matching = value === '.default' ? scopes : scopes.filter((scope) => scope.value === value);
      if (matching.length === 0) unknown.push(text);
      for (const scope of matching) found.set(scope.id, scope);
    }
    if (unknown.length) throw new ClientError(ClientErrorCode.UnknownScopes, `Unknown scopes: ${unknown.join(', ')}`, unknown);
    return [...found.values()];
  }
}
