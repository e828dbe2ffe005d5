import { Controller, Get, Header, Inject, Param, UseFilters } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { ClientCredentialsService, type Jwks, SigningKeyService, issuerOf } from '@gatehouse/tokens';
import { EntraErrorFilter } from './entra-error.filter.js';

/** OpenID Connect Discovery 1.0 / RFC 8414 metadata and the JWKS, per tenant. */
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
  async configuration(@Param('tenant') idOrSlug: string): Promise<Record<string, unknown>> {
    const tenant = await this.clientCredentials.resolveTenant(idOrSlug);
    return openIdConfiguration(this.config.publicUrl, tenant.id);
  }

  @Get('discovery/v2.0/keys')
  @Header('Cache-Control', 'public, max-age=60')
  async keys(@Param('tenant') idOrSlug: string): Promise<Jwks> {
    const tenant = await this.clientCredentials.resolveTenant(idOrSlug);
    await this.signingKeys.signer(tenant.id);
    return this.signingKeys.jwks(tenant.id);
  }
}

/**
 * The metadata document. MSAL requires issuer, authorization_endpoint, token_endpoint and
 * jwks_uri; openid-client checks that issuer equals the URL it discovered from.
 */
export function openIdConfiguration(publicUrl: string, tenantId: string): Record<string, unknown> {
  const base = `${publicUrl}/${tenantId}`;
  return {
    issuer: issuerOf(publicUrl, tenantId),
    // Required by OpenID Connect Discovery and read by MSAL; answers an Entra-shaped 400.
    authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
    token_endpoint: `${base}/oauth2/v2.0/token`,
    jwks_uri: `${base}/discovery/v2.0/keys`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256', 'ES256'],
    scopes_supported: [],
    claims_supported: [
      'iss',
      'aud',
      'sub',
      'oid',
      'tid',
      'azp',
      'azpacr',
      'client_id',
      'roles',
      'scope',
      'idtyp',
      'ver',
      'iat',
      'nbf',
      'exp',
      'jti',
    ],
    request_uri_parameter_supported: false,
    tenant_region_scope: null,
    cloud_instance_name: new URL(publicUrl).host,
  };
}
