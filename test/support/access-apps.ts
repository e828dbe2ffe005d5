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
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type SunkMail, SmtpSink } from './smtp-sink.js';
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

  /** Delivers the outbox as the worker does and returns the mail to `to` whose subject matches. */
  async mailTo(to: string, subject: RegExp): Promise<SunkMail> {
    await this.deliver();
    const [mail] = await this.sink.waitFor((m) => m.envelopeTo.includes(to) && subject.test(m.subject));
    return mail!;
  }

  /** The link of the identity app under `path` that a mail carries, the same in its text and HTML parts. */
  linkIn(mail: SunkMail, path: string): string {
    const link = new RegExp(`${this.publicUrl.replace(/[.:/]/g, '\\$&')}/${path}/[A-Za-z0-9_%-]+`).exec(mail.text)?.[0];
    expect(link, `a ${path} link in "${mail.subject}"`).toBeTruthy();
    expect(mail.html).toContain(link!);
    return link!;
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

/**
 * Fills the rest of the public request form as Pat Partner does (their name is typed already:
 * a test may have sent the form once with a mistake): a personal account and API access for
 * "Orders sync", then sends it and waits for the confirmation page.
 */
export async function sendPatsRequest(page: Page): Promise<void> {
  await page.getByLabel('Your email address').fill('pat@partner.example');
  await page.getByLabel('Organisation').fill('Partner Ltd');
  await page.getByLabel('I need a personal account for the documentation').check();
  await page.getByLabel('Documentation you need').fill('The getting-started guide');
  await page.getByLabel('Why you need it').fill('I build our integration.');
  await page.getByLabel('I need API access for a system').check();
  await page.getByLabel('Name of the system').fill('Orders sync');
  await page.getByLabel('Technical contact (email)').fill('ops@partner.example');
  await page.getByLabel('What the system must do').fill('Read new orders every five minutes.');
  await page.getByRole('button', { name: 'Send request' }).click();
  await page.waitForURL((url) => url.pathname === '/request-access/sent');
}
