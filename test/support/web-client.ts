import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { UserService, hashPassword } from '@gatehouse/accounts';

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
