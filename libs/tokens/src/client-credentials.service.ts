import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import type { Tenant } from '@gatehouse/tenants';
import { ClientAuthenticator } from './client-authenticator.js';
import { signCompactJws } from './compact-jws.js';
import type { ApiRow, ClientSnapshot } from './client-credentials.repository.js';
import { CredentialDirectory } from './credential-directory.js';
import { assertMayRequest, grantedScopes, parseScopeParameter } from './scope-request.js';
import { SigningKeyService, issuerOf } from './signing-key.service.js';
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

  async issue(input: TokenRequestInput): Promise<TokenResponse> {
    const tenant = await this.resolveTenant(input.tenant);
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
    const snapshot = await this.authenticator.authenticate({
      tenantId: tenant.id,
      clientId,
      clientSecret,
      basic: input.basic,
    });
    const api = await this.directory.api(tenant.id, request.resource);
    assertMayRequest(api, snapshot);
    if (!api) {
      throw new TokenRequestError(
        TokenRequestErrorCode.InvalidScope,
        `The resource principal named ${request.resource.slice(0, 200)} was not found in the tenant named ${tenant.id}.`,
      );
    }
    return this.sign(tenant, snapshot, api, grantedScopes(request, api, snapshot));
  }

  private async sign(tenant: Tenant, snapshot: ClientSnapshot, api: ApiRow, scopes: string[]): Promise<TokenResponse> {
    const signer = await this.signingKeys.signer(tenant.id);
    const iat = Math.floor(Date.now() / 1000);
    const expiresIn = tenant.accessTokenLifetimeSeconds;
    const accessToken = signCompactJws(signer, {
      iss: issuerOf(this.config.publicUrl, tenant.id),
      aud: api.appId,
      sub: snapshot.client.id,
      oid: snapshot.client.id,
      client_id: snapshot.client.clientId,
      azp: snapshot.client.clientId,
      azpacr: '1',
      tid: tenant.id,
      roles: scopes,
      scope: scopes.join(' '),
      idtyp: 'app',
      ver: '2.0',
      iat,
      nbf: iat,
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
