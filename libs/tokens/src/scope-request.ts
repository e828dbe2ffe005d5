import { type Role, permissionsOf } from '@gatehouse/accounts';
import { printable } from '@gatehouse/logging';
import { type ApiRow, type ClientSnapshot, NONE } from './client-credentials.repository.js';
import { TokenRequestError, TokenRequestErrorCode } from './token-request.errors.js';

export const DEFAULT_SCOPE = '.default';

/** What a `scope` parameter asks for: one API and either `.default` or a list of scope values. */
export interface ScopeRequest {
  resource: string;
  values: string[];
}

/** OpenID scopes some client libraries add; meaningless for client credentials, so ignored. */
const IGNORED = new Set(['openid', 'profile', 'offline_access', 'email']);

const invalidScope = (message: string) => new TokenRequestError(TokenRequestErrorCode.InvalidScope, message);

/** Requests parsed before, by their exact `scope` text: a client sends the same one every time. */
const parsed = new Map<string, ScopeRequest>();
const MAX_PARSED = 1_000;

/**
 * Parses `{resource}/.default` or `{resource}/{scope} {resource}/{scope} …`; a valid text seen
 * before is answered from a bounded memo (frozen: callers only read it), an invalid one is parsed
 * again to throw its error.
 */
export function parseScopeParameter(scope: string): ScopeRequest {
  const known = parsed.get(scope);
  if (known !== undefined) return known;
  const request = parseScopeText(scope);
  if (scope.length <= 512) {
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(scope, Object.freeze({ resource: request.resource, values: Object.freeze(request.values) as string[] }));
  }
  return request;
}

function parseScopeText(scope: string): ScopeRequest {
  const items = scope.split(/[ ]+/).filter((item) => item && !IGNORED.has(item));
  if (items.length === 0) throw invalidScope(`The provided value for the input parameter 'scope' is not valid.`);
  const resources = new Set<string>();
  const values: string[] = [];
  for (const item of items) {
    const slash = item.lastIndexOf('/');
    if (slash <= 0 || slash === item.length - 1 || /[\s\p{Cc}]/u.test(item)) {
      throw invalidScope(`The provided value '${printable(item, 200)}' for the input parameter 'scope' is not valid.`);
    }
    resources.add(item.slice(0, slash));
    values.push(item.slice(slash + 1));
  }
  if (resources.size > 1) {
    throw new TokenRequestError(
      TokenRequestErrorCode.MultipleResources,
      'The provided value for the input parameter scope is not valid because it contains more than one resource.',
    );
  }
  if (values.includes(DEFAULT_SCOPE) && values.length > 1) {
    throw invalidScope(`The scope ${DEFAULT_SCOPE} cannot be combined with other scopes.`);
  }
  return { resource: [...resources][0]!, values: [...new Set(values)] };
}

/**
 * Scope values the client holds on this API, sorted. The admin API's come from the owner's roles,
 * never from grants. Read only: it may be the snapshot's own list.
 */
export function availableScopes(api: ApiRow, snapshot: ClientSnapshot): readonly string[] {
  if (!api.builtIn) return snapshot.grants.get(api.id) ?? NONE;
  const { ownerUserId, ownerStatus, ownerRoles } = snapshot.client;
  if (!ownerUserId || ownerStatus !== 'active') return NONE;
  const exposed = new Set(api.scopes);
  return permissionsOf(ownerRoles as Role[])
    .filter((permission) => exposed.has(permission))
    .sort();
}

/** The client holds some scope somewhere: a direct grant, or admin scopes through an active owner's roles. */
export function hasAnyGrant(snapshot: ClientSnapshot): boolean {
  const { ownerUserId, ownerStatus, ownerRoles } = snapshot.client;
  return snapshot.grants.size > 0 || (Boolean(ownerUserId) && ownerStatus === 'active' && ownerRoles.length > 0);
}

/**
 * `unauthorized_client` when the client may not ask for tokens yet: it awaits its scopes, or holds
 * none at all. An operator's client (its owner's roles give it admin scopes) may always ask for the
 * admin API; for the admin API a client without such scopes gets `invalid_scope` instead.
 */
export function assertMayRequest(api: ApiRow | null, snapshot: ClientSnapshot): void {
  const admin = api?.builtIn === true;
  if (admin && availableScopes(api, snapshot).length > 0) return;
  if (api?.tokenExchange) return; // any enabled client may prove itself elsewhere

  if (snapshot.client.state === 'awaiting_scopes' || (!admin && !hasAnyGrant(snapshot))) {
    throw new TokenRequestError(
      TokenRequestErrorCode.UnauthorizedClient,
      `Application '${snapshot.client.clientId}' is not assigned to a role for any application.`,
    );
  }
}

/**
 * The scope values a token for this request carries, sorted: all granted for `.default` (the
 * client's own list, the same array for every token of it: see ClientCredentialsService's claims
 * memo), else exactly those asked.
 */
export function grantedScopes(request: ScopeRequest, api: ApiRow, snapshot: ClientSnapshot): readonly string[] {
  if (api.tokenExchange) return exchangeScopes(request, api);
  const available = availableScopes(api, snapshot);
  if (request.values[0] === DEFAULT_SCOPE) {
    if (available.length === 0) throw invalidScope(`No scope of '${api.identifier}' is granted to this client.`);
    return available;
  }
  for (const value of request.values) {
    if (!api.scopes.includes(value))
      throw invalidScope(`The scope '${printable(value, 200)}' does not exist on '${api.identifier}'.`);
    if (!available.includes(value))
      throw invalidScope(`The scope '${value}' of '${api.identifier}' is not granted to this client.`);
  }
  return [...request.values].sort();
}

/** The token-exchange resource has no scopes: `.default` only, and its tokens carry no roles. */
function exchangeScopes(request: ScopeRequest, api: ApiRow): readonly string[] {
  if (request.values[0] === DEFAULT_SCOPE) return NONE;
  throw invalidScope(`${api.identifier} has no scopes: ask for ${api.identifier}/${DEFAULT_SCOPE}.`);
}
