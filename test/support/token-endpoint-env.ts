import { connect } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, expect } from 'vitest';
import { createIdentityApp } from '../../apps/identity/src/identity.app.js';
import { freePort } from './http-apps.js';
import { LogCapture } from './log-capture.js';
import { testConfig } from './test-config.js';
import { type TestDatabase, createTestDatabase } from './test-database.js';
import { TokenFixtures } from './token-fixtures.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * One identity app listening on a free port, a tenant (tokens for 900 s, 1800 s extended), the API
 * `api://orders` and a client granted two of its scopes; started before the file's tests, stopped
 * after them. The token endpoint's test files share it, and its helpers.
 */
export class TokenEndpointEnv {
  database!: TestDatabase;
  app!: INestApplication;
  fx!: TokenFixtures;
  publicUrl!: string;
  readonly logs = new LogCapture();
  /** Every secret issued in the file: none may reach the logs. */
  readonly secrets: string[] = [];
  tenant!: { id: string; slug: string };
  orders!: Awaited<ReturnType<TokenFixtures['api']>>;
  client!: Awaited<ReturnType<TokenFixtures['readyClient']>>;

  constructor() {
    beforeAll(async () => {
      this.database = await createTestDatabase();
      const port = await freePort();
      this.publicUrl = `http://127.0.0.1:${port}`;
      const config = testConfig(this.database.url, { publicUrl: this.publicUrl });
      this.app = await createIdentityApp({ config, logDestination: this.logs });
      await this.app.listen(port, '127.0.0.1');
      this.fx = new TokenFixtures(this.app, config.secretPepper);
      this.tenant = await this.fx.tenant({ lifetime: 900, extLifetime: 1800 });
      this.orders = await this.fx.api(this.tenant.id, {
        identifier: 'api://orders',
        scopes: ['Orders.Read', 'Orders.Write', 'Orders.Admin'],
      });
      this.client = await this.fx.readyClient(this.tenant.id, this.orders, ['Orders.Read', 'Orders.Write']);
      this.secrets.push(this.client.secret);
    });
    afterAll(async () => {
      await this.app?.close();
      await this.database?.drop();
    });
  }

  readonly tokenPath = () => `/${this.tenant.slug}/oauth2/v2.0/token`;
  readonly form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  readonly post = (fields: Record<string, string>, path = this.tokenPath()) =>
    request(this.app.getHttpServer()).post(path).type('form').send(this.form(fields));
  readonly valid = () => ({
    grant_type: 'client_credentials',
    client_id: this.client.clientId,
    client_secret: this.client.secret,
    scope: 'api://orders/.default',
  });

  /** An Entra-shaped error answer: status, error, AADSTS code, trace and correlation ids, no-store. */
  readonly expectError = async (response: request.Response, status: number, error: string, code: number) => {
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ error, error_codes: [code] });
    expect(response.body.error_description).toMatch(
      new RegExp(
        `^AADSTS${code}: .+ Trace ID: [0-9a-f-]{36} Correlation ID: [0-9a-f-]{36} Timestamp: \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ$`,
      ),
    );
    expect(response.body.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);
    expect(response.body.trace_id).toMatch(UUID);
    expect(response.body.correlation_id).toMatch(UUID);
    expect(response.body.error_uri).toBe(`${this.publicUrl}/error?code=${code}`);
    expect(response.headers['cache-control']).toBe('no-store');
  };

  /** Writes a raw HTTP/1.1 request in pieces (a pause between them) and resolves with the raw answer. */
  readonly rawRequest = (pieces: string[], options: { hangUp?: boolean } = {}): Promise<string> => {
    const address = this.app.getHttpServer().address() as { port: number };
    return new Promise((resolve, reject) => {
      const socket = connect(address.port, '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
      socket.on('connect', async () => {
        for (const piece of pieces) {
          socket.write(piece);
          await new Promise((next) => setTimeout(next, 20));
        }
        if (options.hangUp) socket.destroy();
        else socket.end();
      });
    });
  };
}
