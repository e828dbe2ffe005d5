import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAdminApp } from '../../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../../apps/identity/src/identity.app.js';
import { AdminFixtures, type OperatorFixture } from './admin-fixtures.js';
import { type ClientCertificate, makeCertificate, tlsCertificate, trustOnly } from './client-certificates.js';
import { freePort } from './http-apps.js';
import { LogCapture } from './log-capture.js';
import { testConfig } from './test-config.js';
import { type TestDatabase, createTestDatabase } from './test-database.js';
import { TokenFixtures } from './token-fixtures.js';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * The certificate credential files' deployment: an identity app over https (this process trusts
 * its certificate), with `replica: true` a second replica reached over plain http, and the admin
 * API; a tenant with `api://orders`, a client granted `Orders.Read` that has no credential yet
 * and another with a secret, and three certificates made for them (RSA, EC, and the other's).
 */
export class CertificateEnv {
  database!: TestDatabase;
  identity!: INestApplication;
  replica?: INestApplication;
  admin!: INestApplication;
  authority!: string;
  replicaUrl!: string;
  adminUrl!: string;
  operator!: OperatorFixture;
  tenantId!: string;
  clientId!: string;
  otherClientId!: string;
  certificate!: ClientCertificate;
  ecCertificate!: ClientCertificate;
  otherCertificate!: ClientCertificate;
  tls!: { cert: string; key: string };
  readonly logs = new LogCapture();

  constructor(options: { replica?: boolean } = {}) {
    let restore: () => void = () => undefined;
    beforeAll(async () => {
      this.database = await createTestDatabase();
      this.tls = await tlsCertificate();
      restore = await trustOnly(this.tls.cert);
      const [port, replicaPort, adminPort] = [await freePort(), await freePort(), await freePort()];
      const config = testConfig(this.database.url, { publicUrl: `https://localhost:${port}` });
      const { logs } = this;
      this.identity = await createIdentityApp({ config, logDestination: logs, https: { cert: this.tls.cert, key: this.tls.key } });
      await this.identity.listen(port, '127.0.0.1');
      if (options.replica) {
        // A second replica of the same deployment (same PUBLIC_URL), reached directly.
        this.replica = await createIdentityApp({ config, logDestination: logs });
        await this.replica.listen(replicaPort, '127.0.0.1');
      }
      this.admin = await createAdminApp({ config, logDestination: logs });
      await this.admin.listen(adminPort, '127.0.0.1');
      this.adminUrl = `http://127.0.0.1:${adminPort}/admin/v1`;
      const adminFx = new AdminFixtures(this.admin, config);
      const tenant = await adminFx.tenant();
      this.tenantId = tenant.tenantId;
      this.operator = await adminFx.operator(tenant, ['Administrator']);
      const fx = new TokenFixtures(this.identity, config.secretPepper);
      const orders = await fx.api(this.tenantId, { identifier: 'api://orders', scopes: ['Orders.Read'] });
      const client = await fx.client(this.tenantId);
      await fx.grant(this.tenantId, client.id, [orders.scopeIds['Orders.Read']!]);
      this.clientId = client.clientId;
      this.otherClientId = (await fx.readyClient(this.tenantId, orders, ['Orders.Read'])).clientId;
      this.authority = `https://localhost:${port}/${this.tenantId}`;
      this.replicaUrl = `http://127.0.0.1:${replicaPort}/${this.tenantId}`;
      this.certificate = makeCertificate();
      this.ecCertificate = makeCertificate({ type: 'ec' });
      this.otherCertificate = makeCertificate();
    });
    afterAll(async () => {
      restore();
      await this.replica?.close();
      await this.identity?.close();
      await this.admin?.close();
      await this.database?.drop();
    });
  }

  readonly tokenEndpoint = () => `${this.authority}/oauth2/v2.0/token`;

  readonly adminCall = (method: string, path: string, body?: unknown) =>
    fetch(`${this.adminUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.operator.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Registers the three certificates through the admin API: RSA and EC for the client, the other's for the other client. */
  readonly registerCertificates = async () => {
    for (const [client, certificate] of [
      [this.clientId, this.certificate],
      [this.clientId, this.ecCertificate],
      [this.otherClientId, this.otherCertificate],
    ] as const) {
      expect((await this.adminCall('POST', `/clients/${client}/certificates`, { certificate: certificate.pem })).status).toBe(201);
    }
  };

  /** A token request of the client with this assertion; `code` is the Entra error code, or 200. */
  readonly withAssertion = async (assertion: string, base = this.authority, extra: Record<string, string> = {}) => {
    const response = await fetch(`${base}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.clientId,
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: assertion,
        scope: 'api://orders/.default',
        ...extra,
      }),
    });
    const body = (await response.json()) as { access_token?: string; error?: string; error_codes?: number[] };
    return { status: response.status, body, code: body.error_codes?.[0] ?? 200 };
  };
}
