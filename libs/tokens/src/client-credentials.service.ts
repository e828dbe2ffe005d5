import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import type { Tenant } from '@gatehouse/tenants';
import { ClientAuthenticator } from './client-authenticator.js';
import { constantClaimsJson, signAccessToken } from './compact-jws.js';
import type { ApiRow, ClientSnapshot } from './client-credentials.repository.js';
import { CredentialDirectory } from './credential-directory.js';
import { assertMayRequest, grantedScopes, parseScopeParameter } from './scope-request.js';
import { type Signer, SigningKeyService, issuerOf } from './signing-key.service.js';
import { TokenRequestError, TokenRequestErrorCode } from './token-request.errors.js';

/** The parameters of a token request, already read from the body (and Basic header). */
export interface TokenRequestInput {
  tenant: string;
  grantType?: string;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  /** The client authenticated with HTTP Basic. */
  basic: boolean;
}

export interface TokenResponse {
  token_type: 'Bearer';
  expires_in: number;
  ext_expires_in: number;
  access_token: string;
}

export const CLIENT_CREDENTIALS = 'client_credentials';

/** The client credentials grant (RFC 6749 §4.4) with Entra's rules for `scope`. */
@Injectable()
export class ClientCredentialsService {
  private readonly claimsBySnapshot = new WeakMap<ClientSnapshot, Map<string, string>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly directory: CredentialDirectory,
    private readonly authenticator: ClientAuthenticator,
    private readonly signingKeys: SigningKeyService,
  ) {}

  /** The tenant named by id or slug, or an `unknown_tenant` error. */
  async resolveTenant(idOrSlug: string): Promise<Tenant> {
    const tenant = idOrSlug.length <= 100 ? await this.directory.tenant(idOrSlug) : null;
    if (!tenant) {
      throw new TokenRequestError(
        TokenRequestErrorCode.UnknownTenant,
        `Tenant '${idOrSlug.slice(0, 100)}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
      );
    }
    return tenant;
  }

  /**
   * Issues a token. Synchronous when everything it needs is cached (the hot path); a promise when
   * something must be loaded first or a failure must be counted. Errors are
   * {@link TokenRequestError}s, thrown or rejected.
   */
  issue(input: TokenRequestInput): TokenResponse | Promise<TokenResponse> {
    return this.attempt(input, {});
  }

  /**
   * One pass over the request with what is at hand. A missing piece (a cache miss, or any piece
   * while the change listener is down) is loaded and the pass starts again with it, so the checks
   * run in one order however the data came: tenant, grant type, parameters, scope syntax, client
   * authentication, API, scope grants, signing key.
   */
  private attempt(input: TokenRequestInput, loaded: Loaded): TokenResponse | Promise<TokenResponse> {
    const again = (more: Loaded) => this.attempt(input, { ...loaded, ...more });
    const tenant = loaded.tenant ?? this.directory.cachedTenant(input.tenant);
    if (!tenant) return this.resolveTenant(input.tenant).then((found) => again({ tenant: found }));
    const grantType = required('grant_type', input.grantType);
    if (grantType !== CLIENT_CREDENTIALS) {
      throw new TokenRequestError(
        TokenRequestErrorCode.UnsupportedGrantType,
        `The provided value for the input parameter 'grant_type' is not valid. Only '${CLIENT_CREDENTIALS}' is supported.`,
      );
    }
    const clientId = required('client_id', input.clientId);
    const clientSecret = required('client_secret', input.clientSecret);
    const request = parseScopeParameter(required('scope', input.scope));
    let client = loaded.client;
    if (!client) {
      const snapshot =
        loaded.snapshot !== undefined ? loaded.snapshot : this.directory.cachedClient(tenant.id, clientId);
      if (snapshot === undefined) {
        return this.directory.client(tenant.id, clientId).then((found) => again({ tenant, snapshot: found }));
      }
      const authenticated = this.authenticator.authenticate(
        { tenantId: tenant.id, clientId, clientSecret, basic: input.basic },
        snapshot,
      );
      if (authenticated instanceof Promise) return authenticated;
      client = authenticated;
    }
    const api = loaded.api !== undefined ? loaded.api : this.directory.cachedApi(tenant.id, request.resource);
    if (api === undefined) {
      return this.directory.api(tenant.id, request.resource).then((found) => again({ tenant, client, api: found }));
    }
    assertMayRequest(api, client);
    if (!api) {
      throw new TokenRequestError(
        TokenRequestErrorCode.InvalidScope,
        `The resource principal named ${request.resource.slice(0, 200)} was not found in the tenant named ${tenant.id}.`,
      );
    }
    const scopes = grantedScopes(request, api, client);
    const signer = loaded.signer ?? this.signingKeys.cachedSigner(tenant.id);
    if (!signer)
      return this.signingKeys.signer(tenant.id).then((found) => again({ tenant, client, api, signer: found }));
    return this.sign(tenant, client, api, scopes, signer);
  }

  private sign(tenant: Tenant, snapshot: ClientSnapshot, api: ApiRow, scopes: string[], signer: Signer): TokenResponse {
    const iat = Math.floor(Date.now() / 1000);
    const expiresIn = tenant.accessTokenLifetimeSeconds;
    const accessToken = signAccessToken(signer, this.constantClaims(tenant, snapshot, api, scopes), {
      iat,
      exp: iat + expiresIn,
      jti: randomUUID(),
    });
    return {
      token_type: 'Bearer',
      expires_in: expiresIn,
      ext_expires_in: tenant.extAccessTokenLifetimeSeconds,
      access_token: accessToken,
    };
  }

  /**
   * The claims that are the same in every token of this client for this API and scopes, as JSON,
   * kept with the client's snapshot (a change to the client or its owner replaces the snapshot, and
   * with it these). The key names the API and the scopes, the only other inputs.
   */
  private constantClaims(tenant: Tenant, snapshot: ClientSnapshot, api: ApiRow, scopes: string[]): string {
    let bySnapshot = this.claimsBySnapshot.get(snapshot);
    if (!bySnapshot) this.claimsBySnapshot.set(snapshot, (bySnapshot = new Map()));
    const scope = scopes.join(' ');
    const key = `${api.appId} ${scope}`;
    let claims = bySnapshot.get(key);
    if (claims === undefined) {
      claims = constantClaimsJson({
        iss: issuerOf(this.config.publicUrl, tenant.id),
        aud: api.appId,
        sub: snapshot.client.id,
        oid: snapshot.client.id,
        client_id: snapshot.client.clientId,
        azp: snapshot.client.clientId,
        azpacr: '1',
        tid: tenant.id,
        roles: scopes,
        scope,
        idtyp: 'app',
        ver: '2.0',
      });
      if (bySnapshot.size >= MAX_CLAIM_SETS_PER_CLIENT) bySnapshot.clear();
      bySnapshot.set(key, claims);
    }
    return claims;
  }
}

/** Everything a pass of {@link ClientCredentialsService} has loaded so far. */
interface Loaded {
  tenant?: Tenant;
  /** The directory's answer for the client id (null: no such client), not yet authenticated. */
  snapshot?: ClientSnapshot | null;
  /** The client, authenticated. */
  client?: ClientSnapshot;
  api?: ApiRow | null;
  signer?: Signer;
}

/** A client asks for a few scope combinations at most; more are served, just not all remembered. */
const MAX_CLAIM_SETS_PER_CLIENT = 32;

function required(name: string, value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new TokenRequestError(
      TokenRequestErrorCode.MissingParameter,
      `The request body must contain the following parameter: '${name}'.`,
    );
  }
  return value;
}
