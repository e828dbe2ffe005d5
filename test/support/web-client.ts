import type { INestApplication } from '@nestjs/common';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { UserService, hashPassword } from '@gatehouse/accounts';
import { createIdentityApp } from '../../apps/identity/src/identity.app.js';
import { freePort } from './http-apps.js';
import { testConfig } from './test-config.js';
import { createTestDatabase } from './test-database.js';

export const WEB_PASSWORD = 'correct horse battery staple';
export const csrfOf = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';
export const cookieOf = (res: request.Response, name: string) =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));

/** Drives the Web UI over HTTP like a browser without JavaScript: cookies, forms, CSRF fields. */
export class WebClient {
  readonly dataSource: DataSource;

  constructor(
    readonly app: INestApplication,
    readonly origin: string,
    readonly tenantId: string,
  ) {
    this.dataSource = app.get(DataSource);
  }

  /** A user with a known password (`issued`: must change it at first login). */
  async user(username: string, options: { issued?: boolean; password?: string } = {}) {
    const created = await this.app.get(UserService).create(this.tenantId, SYSTEM_ACTOR, {
      username,
      email: `${username}@example.com`,
      displayName: `${username} Example`,
      password: 'none',
    });
    await this.dataSource.query(`UPDATE users SET password_hash = $2, must_change_password = $3 WHERE id = $1`, [
      created.id,
      await hashPassword(options.password ?? WEB_PASSWORD),
      options.issued ?? false,
    ]);
    return created;
  }

  /** An agent with the anonymous login form loaded: its CSRF cookie and token. */
  async loginForm(returnTo?: string) {
    const agent = request.agent(this.app.getHttpServer());
    const page = await agent
      .get(returnTo === undefined ? '/login' : `/login?returnTo=${encodeURIComponent(returnTo)}`)
      .expect(200);
    return { agent, csrf: csrfOf(page.text), page };
  }

  async login(username: string, password = WEB_PASSWORD, returnTo = '/docs') {
    const { agent, csrf, page } = await this.loginForm();
    const res = await agent
      .post('/login')
      .set('Origin', this.origin)
      .type('form')
      .send({ _csrf: csrf, username, password, returnTo });
    const csrfCookie = cookieOf(page, 'gh_csrf')!.split(';')[0]!.split('=')[1]!;
    return { agent, res, csrf, csrfCookie };
  }

  /** Whether an agent's session is alive: the password page answers 200, or sends to the login. */
  async alive(agent: ReturnType<typeof request.agent>): Promise<boolean> {
    return (await agent.get('/password')).status === 200;
  }
}

/** Logs in through the Web UI's form in Chromium, starting at `url` (the login page, or a page that asks for a login). */
export async function logInInBrowser(page: Page, url: string, username: string, password = WEB_PASSWORD): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** The identity app listening on 127.0.0.1 (so Chromium can reach it) on a database of its own, with tenant `acme`. */
export async function startListeningWebApp(): Promise<{ app: INestApplication; origin: string; tenantId: string; close(): Promise<void> }> {
  const database = await createTestDatabase();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const app = await createIdentityApp({ config: testConfig(database.url, { publicUrl: origin }) });
  await app.listen(port, '127.0.0.1');
  const [row] = await app.get(DataSource).query(`INSERT INTO tenants (slug, display_name) VALUES ('acme', 'Acme') RETURNING id`);
  const close = async () => {
    await app.close();
    await database.drop();
  };
  return { app, origin, tenantId: (row as { id: string }).id, close };
}
