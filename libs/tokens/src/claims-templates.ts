import type { Tenant } from '@gatehouse/tenants';
import type { ApiRow, ClientSnapshot } from './client-credentials.repository.js';
import { constantClaimsJson } from './compact-jws.js';
import type { ClientAuthMethod } from './token-request.js';

/** The claims object of a token (everything but the per-token claims), as the grant writes it. */
export type ClaimsOf = (
  tenant: Tenant,
  snapshot: ClientSnapshot,
  api: ApiRow,
  scopes: readonly string[],
  method: ClientAuthMethod,
) => Record<string, unknown>;

/** An API's clients ask for a few scope combinations; more are served, just not all remembered. */
const MAX_CLAIM_SETS_PER_API = 64;

/** Stand-ins for the client's ids in a template; JSON.stringify leaves them as they are. */
const ID_MARK = '@@gatehouse-client-object-id@@';
const CLIENT_ID_MARK = '@@gatehouse-client-id@@';
/** An id that JSON would escape (never a UUID) is written with JSON.stringify instead. */
const UNSAFE_IN_JSON = /["\\\u0000-\u001f@]/;

/** A constant-claims JSON with the client's ids cut out: parts[0] slot[0] parts[1] … */
interface ClaimsTemplate {
  parts: string[];
  slots: string[];
}

/** An API's templates by method and scopes, and the last claims written for it. */
interface ApiClaims {
  templates: Map<string, ClaimsTemplate>;
  client: ClientSnapshot['client'] | null;
  scopes: readonly string[];
  method: ClientAuthMethod;
  json: string;
}

/**
 * The claims that are the same in every token of a client for an API and scopes, as the opening
 * of a JSON object ({@link constantClaimsJson}). Everything but the client's two ids is the same
 * for every client of the API with these scopes and method, so it is kept once per API row (a
 * reloaded API is a new row) rather than once per client: with 10⁵ cached clients, a JSON per
 * client was ≈ 600 bytes each. The API's last JSON is kept too: a client asking again (the same
 * snapshot row and `.default` scope list, both read-only) gets it without the template's lookup
 * and joins.
 */
export class ClaimsTemplates {
  private readonly byApi = new WeakMap<ApiRow, ApiClaims>();

  constructor(private readonly claimsOf: ClaimsOf) {}

  constantJson(
    tenant: Tenant,
    snapshot: ClientSnapshot,
    api: ApiRow,
    scopes: readonly string[],
    method: ClientAuthMethod,
  ): string {
    let memo = this.byApi.get(api);
    if (!memo) this.byApi.set(api, (memo = { templates: new Map(), client: null, scopes: [], method, json: '' }));
    if (memo.client === snapshot.client && memo.scopes === scopes && memo.method === method) return memo.json;
    const json = this.fromTemplate(tenant, snapshot, api, scopes, method, memo.templates);
    memo.client = snapshot.client;
    memo.scopes = scopes;
    memo.method = method;
    memo.json = json;
    return json;
  }

  private fromTemplate(
    tenant: Tenant,
    snapshot: ClientSnapshot,
    api: ApiRow,
    scopes: readonly string[],
    method: ClientAuthMethod,
    byScopes: Map<string, ClaimsTemplate>,
  ): string {
    const { id, clientId } = snapshot.client;
    if (UNSAFE_IN_JSON.test(id) || UNSAFE_IN_JSON.test(clientId))
      return constantClaimsJson(this.claimsOf(tenant, snapshot, api, scopes, method));
    const key = `${method} ${scopes.join(' ')}`;
    let template = byScopes.get(key);
    if (template === undefined) {
      const marked = { ...snapshot, client: { ...snapshot.client, id: ID_MARK, clientId: CLIENT_ID_MARK } };
      template = claimsTemplate(constantClaimsJson(this.claimsOf(tenant, marked, api, scopes, method)));
      if (byScopes.size >= MAX_CLAIM_SETS_PER_API) byScopes.clear();
      byScopes.set(key, template);
    }
    const { parts, slots } = template;
    let json = parts[0]!;
    for (let i = 0; i < slots.length; i++) json += (slots[i] === ID_MARK ? id : clientId) + parts[i + 1]!;
    return json;
  }
}

function claimsTemplate(json: string): ClaimsTemplate {
  const pieces = json.split(new RegExp(`(${ID_MARK}|${CLIENT_ID_MARK})`));
  return { parts: pieces.filter((_, i) => i % 2 === 0), slots: pieces.filter((_, i) => i % 2 === 1) };
}
