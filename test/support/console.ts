import type { INestApplication } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';
import { createAdminApp } from '../../apps/admin/src/admin.app.js';
import { freePort } from './http-apps.js';
import type { LogCapture } from './log-capture.js';
import { testConfig } from './test-config.js';
import { type TestDatabase, createTestDatabase } from './test-database.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { type Role, SecondFactorService, UserService, hashPassword } from '@gatehouse/accounts';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { authenticatorApp } from './totp.js';

export const STAFF_PASSWORD = 'amber lanterns over quiet harbours';
export const csrfOf = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';
/** The "Newer" (`prev`) or "Older" (`next`) link of a paged console list, decoded. */
export const pagerLink = (page: string, rel: 'prev' | 'next') =>
  new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(page)?.[1]?.replace(/&amp;/g, '&');

export interface StaffMember {
  id: string;
  username: string;
  password: string;
  /** The person's authenticator app (`null` when not enrolled). */
  app: ReturnType<typeof authenticatorApp> | null;
  recoveryCodes: string[];
}

const STEP_MS = 30_000;
const stepNow = () => Math.floor(Date.now() / STEP_MS);

/**
 * Staff members and their sign-in, over HTTP and in Chromium, against a running admin app. Codes
 * come from the person's authenticator app computed with otpauth; since each code is accepted
 * once, {@link freshCode} picks a time step not used yet (waiting for the clock when it must).
 */
export class ConsoleFixtures {
  readonly db: DataSource;

  constructor(
    readonly app: INestApplication,
    readonly origin: string,
  ) {
    this.db = app.get(DataSource);
  }

  /** A staff member with a password and, unless `enrol: false`, an enrolled authenticator. */
  async staff(tenantId: string, roles: Role[], options: { username?: string; enrol?: boolean } = {}): Promise<StaffMember> {
    const username = options.username ?? `staff-${Math.random().toString(36).slice(2, 8)}`;
    const user = await this.app.get(UserService).create(tenantId, SYSTEM_ACTOR, {
      username,
      email: `${username}@example.com`,
      displayName: `${username[0]!.toUpperCase()}${username.slice(1)} Example`,
      roles,
      password: 'none',
    });
    await this.db.query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [user.id, await hashPassword(STAFF_PASSWORD)]);
    const member: StaffMember = { id: user.id, username, password: STAFF_PASSWORD, app: null, recoveryCodes: [] };
    if (options.enrol === false) return member;
    const factors = this.app.get(SecondFactorService);
    const enrolment = await factors.enrolment(tenantId, { id: user.id, username }, 'Gatehouse (test)');
    member.app = authenticatorApp(enrolment.secret);
    const confirmed = await factors.confirmEnrolment(tenantId, user.id, member.app.code());
    if (!confirmed.ok) throw new Error('enrolment failed');
    member.recoveryCodes = confirmed.recoveryCodes;
    return member;
  }

  /** The first time step this person may use now (later than the last one accepted). */
  private async nextStep(member: Pick<StaffMember, 'id'>): Promise<number> {
    const [row] = await this.db.query(`SELECT last_used_step AS step FROM totp_factors WHERE user_id = $1`, [member.id]);
    return Math.max(stepNow(), ((row?.step as number | null) ?? 0) + 1);
  }

  /**
   * A second factor for a sign-in or a step-up: the app's code when a fresh step is at hand, else
   * one of the person's unused recovery codes (so tests never wait for the clock).
   */
  async secondFactor(member: StaffMember): Promise<string> {
    const wanted = await this.nextStep(member);
    if (wanted <= stepNow() + 1) return member.app!.code(wanted - stepNow());
    const code = member.recoveryCodes.pop();
    if (!code) throw new Error('no fresh TOTP step and no recovery code left');
    return code;
  }

  /** A code of a time step this person has not used yet (waits for the clock if both near steps are used). */
  async freshCode(member: Pick<StaffMember, 'id' | 'app'>): Promise<string> {
    const wanted = await this.nextStep(member);
    const deadline = Date.now() + 2 * STEP_MS;
    while (wanted > stepNow() + 1) {
      if (Date.now() > deadline) throw new Error('the clock did not reach a fresh TOTP step');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return member.app!.code(wanted - stepNow());
  }

  /** A supertest agent holding a console session that passed both factors. */
  async signIn(member: StaffMember, base = '/console'): Promise<request.Agent> {
    const agent = request.agent(this.app.getHttpServer());
    const pending = await this.passwordStep(agent, member, base);
    if (pending.status !== 303 || !/\/login\/code/.test(pending.headers.location ?? '')) {
      throw new Error(`password step answered ${pending.status} ${pending.headers.location ?? ''}`);
    }
    const done = await this.codeStep(agent, base, await this.secondFactor(member));
    if (done.status !== 303) throw new Error(`code step answered ${done.status}`);
    return agent;
  }

  /** The first step only: a password-only session. */
  async passwordStep(agent: request.Agent, member: Pick<StaffMember, 'username' | 'password'>, base = '/console') {
    const form = await agent.get(`${base}/login`);
    return agent
      .post(`${base}/login`)
      .set('Origin', this.origin)
      .type('form')
      .send({ _csrf: csrfOf(form.text), username: member.username, password: member.password, returnTo: base });
  }

  async codeStep(agent: request.Agent, base: string, code: string) {
    const form = await agent.get(`${base}/login/code`);
    return agent.post(`${base}/login/code`).set('Origin', this.origin).type('form').send({ _csrf: csrfOf(form.text), code, returnTo: base });
  }

  /** A POST of a console form as the page would send it: its CSRF token, same origin. */
  async post(agent: request.Agent, formPath: string, action: string, fields: Record<string, string | string[]>) {
    const page = await agent.get(formPath);
    return agent.post(action).set('Origin', this.origin).type('form').send(formBody({ _csrf: csrfOf(page.text), ...fields }));
  }
}

/** A form body as a browser encodes it: a repeated field (checkboxes) repeats its name. */
export function formBody(fields: Record<string, string | string[]>): string {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return body.toString();
}

/** Signs a staff member in through the pages, in Chromium, with the keyboard or the mouse. */
export async function signInInBrowser(page: Page, url: string, member: StaffMember, code: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Username').fill(member.username);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((target) => !target.pathname.includes('/login'));
}

/** What the sidebar shows beside an entry after its label ("1 waiting for a decision"; '' when nothing waits). */
export async function sidebarCount(page: Page, label: string): Promise<string> {
  const link = page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: new RegExp(`^${label}`) });
  return ((await link.textContent()) ?? '').replace(label, '').trim();
}

/** The number on an Overview card. */
export async function overviewFigure(page: Page, label: string): Promise<string> {
  return ((await page.locator('a.card', { hasText: label }).locator('.card-figure').textContent()) ?? '').trim();
}

/** An admin app listening on a free port of 127.0.0.1 (so Chromium can reach it), with one tenant. */
export interface ConsoleApp {
  admin: INestApplication;
  config: AppConfig;
  origin: string;
  db: DataSource;
  staff: ConsoleFixtures;
  tenantId: string;
  close(): Promise<void>;
}

export async function startConsoleApp(
  options: { slug?: string; displayName?: string; config?: Partial<AppConfig>; host?: 'localhost' | '127.0.0.1'; logs?: LogCapture } = {},
): Promise<ConsoleApp> {
  const database: TestDatabase = await createTestDatabase();
  const port = await freePort();
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`; // passkeys need a host name, not an address
  const config = testConfig(database.url, { adminPublicUrl: origin, ...options.config });
  const admin = await createAdminApp({ config, logDestination: options.logs });
  await admin.listen(port, '127.0.0.1');
  const db = admin.get(DataSource);
  const [{ id: tenantId }] = await db.query(`INSERT INTO tenants (slug, display_name) VALUES ($1, $2) RETURNING id`, [
    options.slug ?? 'acme',
    options.displayName ?? 'Acme Ltd',
  ]);
  const close = async () => {
    await admin.close();
    await database.drop();
  };
  return { admin, config, origin, db, staff: new ConsoleFixtures(admin, origin), tenantId, close };
}

/** One Chromium context per staff member, signed in once (a sign-in costs a password hash); pages open in it. */
export class StaffBrowsers {
  private readonly contexts = new Map<string, BrowserContext>();

  constructor(
    private readonly browser: Browser,
    private readonly app: Pick<ConsoleApp, 'origin' | 'staff'>,
  ) {}

  async open(member: StaffMember): Promise<{ page: Page; context: BrowserContext }> {
    const known = this.contexts.get(member.id);
    if (known) return { page: await known.newPage(), context: known };
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    this.contexts.set(member.id, context);
    const page = await context.newPage();
    await signInInBrowser(page, `${this.app.origin}/console/login`, member, await this.app.staff.secondFactor(member));
    return { page, context };
  }

  async close(): Promise<void> {
    for (const context of this.contexts.values()) await context.close().catch(() => undefined);
  }
}
