import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll } from 'vitest';
import { ALL_PERMISSIONS } from '@gatehouse/accounts';
import { ADMIN_API_IDENTIFIER } from '@gatehouse/apis';
import { createIdentityApp } from '../../apps/identity/src/identity.app.js';
import { freePort } from './http-apps.js';
import { LogCapture } from './log-capture.js';
import { testConfig } from './test-config.js';
import { type TestDatabase, createTestDatabase } from './test-database.js';
import { TokenFixtures } from './token-fixtures.js';

/**
 * An identity app behind a trusted proxy (loopback: X-Forwarded-For names the client's address), a
 * tenant with `api://orders` and the admin API; started before the file's tests, stopped after.
 */
export class TokenRotationEnv {
  database!: TestDatabase;
  app!: INestApplication;
  fx!: TokenFixtures;
  baseUrl!: string;
  readonly logs = new LogCapture();
  /** Every secret issued in the file: none may reach the logs. */
  readonly secrets: string[] = [];
  tenant!: { id: string; slug: string };
  orders!: Awaited<ReturnType<TokenFixtures['api']>>;
  admin!: Awaited<ReturnType<TokenFixtures['api']>>;

  constructor() {
    beforeAll(async () => {
      this.database = await createTestDatabase();
      const port = await freePort();
      this.baseUrl = `http://127.0.0.1:${port}`;
      const config = testConfig(this.database.url, { publicUrl: this.baseUrl, trustProxy: ['loopback'] });
      this.app = await createIdentityApp({ config, logDestination: this.logs });
      await this.app.listen(port, '127.0.0.1');
      this.fx = new TokenFixtures(this.app, config.secretPepper);
      this.tenant = await this.fx.tenant();
      this.orders = await this.fx.api(this.tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read', 'Orders.Write'] });
      this.admin = await this.fx.api(this.tenant.id, { identifier: ADMIN_API_IDENTIFIER, scopes: [...ALL_PERMISSIONS], builtIn: true });
    });
    afterAll(async () => {
      await this.app?.close();
      await this.database?.drop();
    });
  }

  /** `source` is the client address a trusted proxy (loopback here) reports in X-Forwarded-For. */
  readonly token = (clientId: string, clientSecret: string, scope = 'api://orders/.default', source = '192.0.2.1') =>
    fetch(`${this.baseUrl}/${this.tenant.slug}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': source },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope }),
    });

  /** The Entra error code of an answer, or 200. */
  readonly codeOf = async (response: Response): Promise<number> => {
    if (response.status === 200) return 200;
    const body = (await response.json()) as { error_codes: number[] };
    return body.error_codes[0]!;
  };
}
