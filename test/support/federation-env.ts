import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { FederatedCredentialView } from '@gatehouse/clients';
import type { AppConfig } from '@gatehouse/config';
import { createAdminApp } from '../../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../../apps/identity/src/identity.app.js';
import { AdminFixtures } from './admin-fixtures.js';
import { tlsCertificate, trustOnly } from './client-certificates.js';
import { freePort } from './http-apps.js';
import { LogCapture } from './log-capture.js';
import { IssuerServer } from './oidc-issuer.js';
import { testConfig } from './test-config.js';
import { type TestDatabase, createTestDatabase } from './test-database.js';
import { TokenFixtures } from './token-fixtures.js';

export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface TokenAnswer {
  status: number;
  body: { access_token?: string; error?: string; error_description?: string; error_codes?: number[] };
  /** The AADSTS number of a refusal, 200 for a token. */
  code: number;
}

/**
 * Federated credentials end to end: issuers on an https server of their own (their own test CA,
 * trusted through OUTBOUND_CA_FILE's setting; their origin listed in FEDERATION_PRIVATE_ISSUERS,
 * since it is on loopback), Gatehouse's identity app over https, its admin API for the
 * credentials, a tenant with `api://orders`, and clients that hold no secret at all.
 */
export class FederationEnv {
  readonly logs = new LogCapture();
  database: TestDatabase;
  issuers: IssuerServer;
  identity: INestApplication;
  admin: INestApplication;
  config: AppConfig;
  tls: { cert: string; key: string };
  tokens: TokenFixtures;
  tenantId: string;
  operatorToken: string;
  orders: Awaited<ReturnType<TokenFixtures['api']>>;
  port: number;
  private restore: () => void = () => undefined;

  get authority(): string {
    return `https://localhost:${this.port}/${this.tenantId}`;
  }

  async start(overrides: Partial<AppConfig> = {}): Promise<this> {
    this.database = await createTestDatabase();
    this.issuers = await IssuerServer.start();
    this.tls = await tlsCertificate();
    this.restore = await trustOnly(this.tls.cert);
    this.port = await freePort();
    this.config = testConfig(this.database.url, {
      publicUrl: `https://localhost:${this.port}`,
      federationPrivateIssuers: [this.issuers.origin],
      outboundCa: this.issuers.ca,
      ...overrides,
    });
    this.identity = await createIdentityApp({ config: this.config, logDestination: this.logs, https: this.tls });
    await this.identity.listen(this.port, '127.0.0.1');
    this.admin = await createAdminApp({ config: this.config, logDestination: this.logs });
    await this.admin.init();
    const fixtures = new AdminFixtures(this.admin, this.config);
    const tenant = await fixtures.tenant();
    this.tenantId = tenant.tenantId;
    this.operatorToken = (await fixtures.operator(tenant, ['Administrator'])).token;
    this.tokens = new TokenFixtures(this.identity, this.config.secretPepper);
    this.orders = await this.tokens.api(this.tenantId, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    return this;
  }

  async stop(): Promise<void> {
    this.restore();
    await this.identity?.close();
    await this.admin?.close();
    await this.issuers?.close();
    await this.database?.drop();
  }

  /** An active client granted Orders.Read, without any secret or certificate. */
  async client(tenantId = this.tenantId, api = this.orders): Promise<{ id: string; clientId: string }> {
    const client = await this.tokens.client(tenantId);
    await this.tokens.grant(tenantId, client.id, [api.scopeIds['Orders.Read']!]);
    return client;
  }

  /**
   * A federated credential through the admin API (as the tenant's Administrator), once the identity
   * app has heard of the change (its cache of the client's credentials is dropped by the announcement).
   */
  async credential(clientId: string, body: Record<string, unknown>, token = this.operatorToken): Promise<FederatedCredentialView> {
    const answer = await request(this.admin.getHttpServer())
      .post(`/admin/v1/clients/${clientId}/federated-credentials`)
      .set('authorization', `Bearer ${token}`)
      .send({ name: `fic-${Math.random().toString(36).slice(2, 8)}`, ...body });
    if (answer.status !== 201) throw new Error(`credential refused: ${answer.status} ${JSON.stringify(answer.body)}`);
    await this.tokens.settle();
    return answer.body as FederatedCredentialView;
  }

  /** A token request with an external token as the client assertion, as MSAL sends it. */
  async exchange(clientId: string | undefined, assertion: string, extra: Record<string, string> = {}, authority = this.authority): Promise<TokenAnswer> {
    const response = await fetch(`${authority}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        ...(clientId === undefined ? {} : { client_id: clientId }),
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: assertion,
        scope: 'api://orders/.default',
        ...extra,
      }),
    });
    const body = (await response.json()) as TokenAnswer['body'];
    return { status: response.status, body, code: body.error_codes?.[0] ?? response.status };
  }
}

/** The claims of a JWT, unverified (what a test looks at once the token endpoint has answered). */
export function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}
