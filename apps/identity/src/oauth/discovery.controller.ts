import { Controller, Get, Header, Inject, Param, UseFilters } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  ASSERTION_ALGORITHMS,
  ClientCredentialsService,
  JWKS_MAX_AGE_SECONDS,
  type Jwks,
  SigningKeyService,
  issuerOf,
  v1IssuerOf,
} from '@gatehouse/tokens';
import { EntraErrorFilter } from './entra-error.filter.js';

/**
 * OpenID Connect Discovery 1.0 / RFC 8414 metadata (v2.0 and Entra's v1 document) and the JWKS,
 * per tenant; readable from any origin (browsers' resource servers and tools fetch them).
 */
@Controller(':tenant')
@UseFilters(EntraErrorFilter)
export class DiscoveryController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clientCredentials: ClientCredentialsService,
    private readonly signingKeys: SigningKeyService,
  ) {}

  @Get('v2.0/.well-known/openid-configuration')
  @Header('Cache-Control', 'public, max-age=3600')
  @Header('Access-Control-Allow-Origin', '*')
  async configuration(@Param('tenant') idOrSlug: string): Promise<Record<string, unknown>> {
    const tenant = await this.clientCredentials.resolveTenant(idOrSlug);
    return openIdConfiguration(this.config.publicUrl, tenant.id);
  }

  /** Entra's v1 document: the v1 issuer (`{PUBLIC_URL}/{tid}/`) and token endpoint (`resource=`). */
  @Get('.well-known/openid-configuration')
  @Header('Cache-Control', 'public, max-age=3600')
  @Header('Access-Control-Allow-Origin', '*')
  async v1Configuration(@Param('tenant') idOrSlug: string): Promise<Record<string, unknown>> {
    const tenant = await this.clientCredentials.resolveTenant(idOrSlug);
    return v1OpenIdConfiguration(this.config.publicUrl, tenant.id);
  }

  @Get(['discovery/v2.0/keys', 'discovery/keys'])
  @Header('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
  @Header('Access-Control-Allow-Origin', '*')
  async keys(@Param('tenant') idOrSlug: string): Promise<Jwks> {
    const tenant = await this.clientCredentials.resolveTenant(idOrSlug);
    await this.signingKeys.signer(tenant.id);
    return this.signingKeys.jwks(tenant.id);
  }
}

const CLAIMS = ['iss', 'aud', 'sub', 'oid', 'tid', 'azp', 'azpacr', 'appid', 'appidacr', 'client_id', 'roles', 'scope', 'idtyp', 'ver', 'iat', 'nbf', 'exp', 'jti', 'uti'];

/** What both documents share: the methods, algorithms and fields Entra publishes that apply here. */
function common(publicUrl: string, tenantId: string, version: 'v1' | 'v2'): Record<string, unknown> {
  const base = `${publicUrl}/${tenantId}`;
  const path = version === 'v2' ? 'oauth2/v2.0' : 'oauth2';
  return {
    // Required by OpenID Connect Discovery and read by MSAL; answers an Entra-shaped 400.
    authorization_endpoint: `${base}/${path}/authorize`,
    token_endpoint: `${base}/${path}/token`,
    jwks_uri: `${base}/discovery/${version === 'v2' ? 'v2.0/' : ''}keys`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256', 'ES256'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
    claims_supported: CLAIMS,
    request_uri_parameter_supported: false,
    tenant_region_scope: 'WW',
    cloud_instance_name: new URL(publicUrl).host,
  };
}

/**
 * The v2.0 metadata document. MSAL requires issuer, authorization_endpoint, token_endpoint and
 * jwks_uri; openid-client checks that issuer equals the URL it discovered from.
 */
export function openIdConfiguration(publicUrl: string, tenantId: string): Record<string, unknown> {
  return { issuer: issuerOf(publicUrl, tenantId), ...common(publicUrl, tenantId, 'v2') };
}

export function v1OpenIdConfiguration(publicUrl: string, tenantId: string): Record<string, unknown> {
  return { issuer: v1IssuerOf(publicUrl, tenantId), ...common(publicUrl, tenantId, 'v1') };
}
