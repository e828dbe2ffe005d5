import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { printable } from '@gatehouse/logging';
import type { Tenant } from '@gatehouse/tenants';
import { type ClientAssertion, ClientAssertionAuthenticator } from './client-assertion-authenticator.js';
import { ClientAuthenticator } from './client-authenticator.js';
import { signAccessToken } from './compact-jws.js';
import { ClaimsTemplates } from './claims-templates.js';
import type { ApiRow, ClientSnapshot } from './client-credentials.repository.js';
import { CredentialDirectory } from './credential-directory.js';
import { FederatedAssertionAuthenticator } from './federation/federated-assertion-authenticator.js';
import { ClientLimitsGate } from './limits/client-limits-gate.js';
import { DEFAULT_SCOPE, type ScopeRequest, assertMayRequest, grantedScopes, parseScopeParameter } from './scope-request.js';
import { issuerOf, v1IssuerOf } from './issuers.js';
import { type Signer, SigningKeyService } from './signing-key.service.js';
import { newTokenId } from './token-id.js';
import type { ClientAuthMethod, TokenRequestInput, TokenResponse } from './token-request.js';
import { TokenRequestError, TokenRequestErrorCode } from './token-request.errors.js';

export type { TokenRequestInput, TokenResponse } from './token-request.js';

export const CLIENT_CREDENTIALS = 'client_credentials';

/** The client credentials grant (RFC 6749 §4.4) with Entra's rules for `scope`. */
@Injectable()
export class ClientCredentialsService {
  /** The constant part of every token's claims, written from templates. */
  private readonly templates = new ClaimsTemplates((...args) => this.claims(...args));

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly directory: CredentialDirectory,
    private readonly authenticator: ClientAuthenticator,
    private readonly assertions: ClientAssertionAuthenticator,
    private readonly federated: FederatedAssertionAuthenticator,
    private readonly signingKeys: SigningKeyService,
    private readonly limits: ClientLimitsGate,
  ) {}

  /** The tenant named by id or slug, or an `unknown_tenant` error. */
  async resolveTenant(idOrSlug: string): Promise<Tenant> {
    const tenant = idOrSlug.length <= 100 ? await this.directory.tenant(idOrSlug) : null;
    if (!tenant) {
      throw new TokenRequestError(
        TokenRequestErrorCode.UnknownTenant,
        `Tenant '${printable(idOrSlug)}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
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
    return this.attempt(input, NOTHING_LOADED);
  }

  /**
   * One pass over the request with what is at hand. A missing piece (a cache miss, or any piece
   * while the change listener is down) is loaded and the pass starts again with it, so the checks
   * run in one order however the data came: tenant, grant type, parameters, scope syntax, client
   * authentication (a secret, or a certificate's assertion), the client's source ranges and
   * quota, API, scope grants, signing key.
   */
  private attempt(input: TokenRequestInput, loaded: Loaded): TokenResponse | Promise<TokenResponse> {
    const tenant = loaded.tenant ?? this.directory.cachedTenant(input.tenant);
    if (!tenant) return this.resolveTenant(input.tenant).then((found) => this.again(input, loaded, { tenant: found }));
    const grantType = required('grant_type', input.grantType);
    if (grantType !== CLIENT_CREDENTIALS) {
      throw new TokenRequestError(
        TokenRequestErrorCode.UnsupportedGrantType,
        `The provided value for the input parameter 'grant_type' is not valid. Only '${CLIENT_CREDENTIALS}' is supported.`,
      );
    }
    const assertion = loaded.assertion ?? this.assertions.read(input);
    const clientId = assertion
      ? this.assertions.clientIdOf(assertion, input.clientId)
      : required('client_id', input.clientId);
    const clientSecret = assertion ? '' : credential(input.clientSecret);
    const request = parseScopeParameter(input.v1 ? resourceScope(input.resource) : required('scope', input.scope));
    if (tenant.scopeRequests === 'entra' && request.values[0] !== DEFAULT_SCOPE) throw defaultScopeOnly(request);
    let client = loaded.client;
    if (!client) {
      const snapshot =
        loaded.snapshot !== undefined ? loaded.snapshot : this.directory.cachedClient(tenant.id, clientId);
      if (snapshot === undefined) {
        return this.directory
          .client(tenant.id, clientId)
          .then((found) => this.again(input, loaded, { tenant, snapshot: found, assertion }));
      }
      if (assertion) {
        const asserted = { tenant, clientId, basic: input.basic, origin: input.origin };
        const authenticated =
          assertion.kind === 'federated'
            ? this.federated.authenticate({ ...asserted, assertion }, snapshot)
            : this.assertions.authenticate({ ...asserted, assertion }, snapshot);
        return authenticated.then(
          (found) =>
            (found.limits === null ? null : this.limits.check(tenant.id, found, input.origin)) ??
            this.again(input, loaded, { tenant, client: found, assertion, method: '2' }),
        );
      }
      const authenticated = this.authenticator.authenticate(
        { tenantId: tenant.id, clientId, clientSecret, basic: input.basic, origin: input.origin },
        snapshot,
      );
      if (authenticated instanceof Promise) return authenticated;
      // Network restriction and quota: one property read for a client without either.
      if (authenticated.limits !== null) {
        const refused = this.limits.check(tenant.id, authenticated, input.origin);
        if (refused !== null) return refused;
      }
      client = authenticated;
    }
    const api = loaded.api !== undefined ? loaded.api : this.directory.cachedApi(tenant.id, request.resource);
    if (api === undefined) {
      return this.directory
        .api(tenant.id, request.resource)
        .then((found) => this.again(input, loaded, { tenant, client, api: found }));
    }
    assertMayRequest(api, client);
    if (!api) {
      throw new TokenRequestError(
        TokenRequestErrorCode.InvalidResource,
        `The resource principal named ${printable(request.resource, 200)} was not found in the tenant named ${printable(tenant.displayName, 200)}. ` +
          'This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. ' +
          'You might have sent your authentication request to the wrong tenant.',
      );
    }
    const scopes = grantedScopes(request, api, client);
    const signer = loaded.signer ?? this.signingKeys.cachedSigner(tenant.id);
    if (!signer)
      return this.signingKeys
        .signer(tenant.id)
        .then((found) => this.again(input, loaded, { tenant, client, api, signer: found }));
    return this.sign(tenant, client, api, scopes, signer, loaded.method ?? '1', input.v1 ? input.resource : undefined);
  }

  /** The pass started again with what a load brought (a method, not a closure made on every pass). */
  private again(input: TokenRequestInput, loaded: Loaded, more: Loaded): TokenResponse | Promise<TokenResponse> {
    return this.attempt(input, { ...loaded, ...more });
  }

  private sign(
    tenant: Tenant,
    snapshot: ClientSnapshot,
    api: ApiRow,
    scopes: readonly string[],
    signer: Signer,
    method: ClientAuthMethod,
    v1Resource: string | undefined,
  ): TokenResponse {
    const iat = Math.floor(Date.now() / 1000);
    const expiresIn = tenant.accessTokenLifetimeSeconds;
    const claims = this.templates.constantJson(tenant, snapshot, api, scopes, method);
    const { jti, uti } = newTokenId();
    const accessToken = signAccessToken(signer, claims, { iat, exp: iat + expiresIn, jti, uti }, api.accessTokenTyp);
    const response: TokenResponse = {
      token_type: 'Bearer',
      expires_in: expiresIn,
      ext_expires_in: tenant.extAccessTokenLifetimeSeconds,
      access_token: accessToken,
    };
    // Entra's v1 endpoint also says when the token starts and ends, and for which resource.
    if (v1Resource !== undefined) response.v1 = { notBefore: iat, expiresOn: iat + expiresIn, resource: v1Resource };
    return response;
  }

  private claims(
    tenant: Tenant,
    snapshot: ClientSnapshot,
    api: ApiRow,
    scopes: readonly string[],
    method: ClientAuthMethod,
  ) {
    return api.accessTokenVersion === 1
      ? this.v1Claims(tenant, snapshot, api, scopes, method)
      : this.v2Claims(tenant, snapshot, api, scopes, method);
  }

  /** Entra v2.0 access token claims of an app (+ RFC 9068's client_id and scope). */
  private v2Claims(
    tenant: Tenant,
    snapshot: ClientSnapshot,
    api: ApiRow,
    scopes: readonly string[],
    method: ClientAuthMethod,
  ) {
    return {
      iss: issuerOf(this.config.publicUrl, tenant.id),
      aud: api.appId,
      sub: snapshot.client.id,
      oid: snapshot.client.id,
      client_id: snapshot.client.clientId,
      azp: snapshot.client.clientId,
      azpacr: method,
      tid: tenant.id,
      roles: scopes,
      scope: scopes.join(' '),
      idtyp: 'app',
      ver: '2.0',
    };
  }

  /** Entra v1.0 access token claims of an app: `aud` is the identifier URI, the client is `appid`. */
  private v1Claims(
    tenant: Tenant,
    snapshot: ClientSnapshot,
    api: ApiRow,
    scopes: readonly string[],
    method: ClientAuthMethod,
  ) {
    const issuer = v1IssuerOf(this.config.publicUrl, tenant.id);
    return {
      aud: api.identifier,
      iss: issuer,
      idp: issuer,
      appid: snapshot.client.clientId,
      appidacr: method,
      oid: snapshot.client.id,
      sub: snapshot.client.id,
      tid: tenant.id,
      roles: scopes,
      idtyp: 'app',
      ver: '1.0',
    };
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
  /** The request's client assertion, parsed once. */
  assertion?: ClientAssertion;
  /** How the client authenticated (a secret unless said). */
  method?: ClientAuthMethod;
}

const NOTHING_LOADED: Loaded = Object.freeze({});

/** The client secret, or Entra's 401 AADSTS7000218 when the request carries no credential at all. */
function credential(secret: string | undefined): string {
  if (secret !== undefined && secret !== '') return secret;
  throw new TokenRequestError(
    TokenRequestErrorCode.MissingCredential,
    "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
  );
}

/** Entra's AADSTS1002012: the tenant allows `{resource}/.default` only, as Entra does for this grant. */
function defaultScopeOnly(request: ScopeRequest): TokenRequestError {
  const named = printable(request.values.map((value) => `${request.resource}/${value}`).join(' '), 200);
  return new TokenRequestError(
    TokenRequestErrorCode.DefaultScopeOnly,
    `The provided value for scope ${named} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
  );
}

/** The v1 endpoint's `resource`, asked for as every scope granted on it (v1 has no narrower form). */
function resourceScope(resource: string | undefined): string {
  return `${required('resource', resource)}/${DEFAULT_SCOPE}`;
}

function required(name: string, value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new TokenRequestError(
      TokenRequestErrorCode.MissingParameter,
      `The request body must contain the following parameter: '${name}'.`,
    );
  }
  return value;
}
