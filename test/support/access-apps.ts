import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@gatehouse/config';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { createAdminApp } from '../../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../../apps/identity/src/identity.app.js';
import { AdminFixtures, type TenantFixture } from './admin-fixtures.js';
import { freePort } from './http-apps.js';
import { LogCapture } from './log-capture.js';
import { SmtpSink } from './smtp-sink.js';
import { testConfig } from './test-config.js';
import { type TestDatabase, createTestDatabase } from './test-database.js';
import { csrfOf } from './web-client.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * The identity app (listening, so browsers and the token endpoint can be reached) and the admin
 * app on one cloned database, a real SMTP server, and the Web UI's tenant `default` with its
 * built-in admin API: what the access-request process needs.
 */
export class AccessApps {
  readonly sink = new SmtpSink();
  readonly logs = new LogCapture();
  database: TestDatabase;
  config: AppConfig;
  identity: INestApplication;
  admin: INestApplication;
  dataSource: DataSource;
  fixtures: AdminFixtures;
  tenant: TenantFixture;
  publicUrl: string;
  /** The admin app's address when it listens (`listenAdmin`), for the console in a browser. */
  adminUrl: string | undefined;

  async start(overrides: Partial<AppConfig> = {}, options: { listenAdmin?: boolean } = {}): Promise<this> {
    await this.sink.start();
    this.database = await createTestDatabase();
    const port = await freePort();
    this.publicUrl = `http://127.0.0.1:${port}`;
    const adminPort = options.listenAdmin ? await freePort() : undefined;
    this.adminUrl = adminPort ? `http://127.0.0.1:${adminPort}` : undefined;
    this.config = testConfig(this.database.url, {
      publicUrl: this.publicUrl,
      smtpUrl: this.sink.url,
      logLevel: 'info',
      ...(this.adminUrl ? { adminPublicUrl: this.adminUrl } : {}),
      ...overrides,
    });
    this.identity = await createIdentityApp({ config: this.config, logDestination: this.logs });
    await this.identity.listen(port, '127.0.0.1');
    this.admin = await createAdminApp({ config: this.config, logDestination: this.logs });
    if (adminPort) await this.admin.listen(adminPort, '127.0.0.1');
    this.dataSource = this.admin.get(DataSource);
    this.fixtures = new AdminFixtures(this.admin, this.config);
    this.tenant = await this.fixtures.tenant('default');
    return this;
  }

  async stop(): Promise<void> {
    await this.identity?.close();
    await this.admin?.close();
    await this.sink.stop();
    await this.database?.drop();
  }

  /** An admin API call with an operator's token. */
  call(method: Method, path: string, token: string, body?: unknown) {
    const req = request(this.admin.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${token}`);
    return body === undefined ? req : req.send(body as object);
  }

  /** Delivers the whole outbox to the SMTP server; returns the mails that arrived now. */
  async deliver() {
    const seen = this.sink.messages.length;
    while ((await this.admin.get(OutboxDeliveryService).deliverDue(200)).claimed > 0);
    return this.sink.messages.slice(seen);
  }

  async count(sql: string, params: unknown[] = []): Promise<number> {
    return ((await this.dataSource.query(sql, params))[0] as { n: number }).n;
  }

  /**
   * A visit of a public page as a browser without JavaScript makes it, from `source` (believed
   * when the apps trust the loopback proxy): the page, and a POST of its form with its CSRF token
   * (a page without a form lends the token of the request form, to forge a post).
   */
  async visit(path: string, source = '192.0.2.1') {
    const agent = request.agent(this.identity.getHttpServer());
    const page = await agent.get(path).set('X-Forwarded-For', source);
    const csrf = csrfOf(page.text) || csrfOf((await agent.get('/request-access')).text);
    const post = (fields: Record<string, string> = {}) =>
      agent
        .post(path)
        .set('X-Forwarded-For', source)
        .set('Origin', this.publicUrl)
        .type('form')
        .send({ _csrf: csrf, ...fields });
    return { page, post };
  }
}
