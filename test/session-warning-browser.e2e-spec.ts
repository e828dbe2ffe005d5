import type { INestApplication } from '@nestjs/common';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, StaffBrowsers, startConsoleApp } from './support/console.js';
import { checkPage } from './support/page-checks.js';
import { WebClient, logInInBrowser, startListeningWebApp } from './support/web-client.js';

const MINUTE = 60_000;

/**
 * A session about to time out warns (CONSOLE.md, "Daily work"), in both UIs: two minutes before
 * the idle end a notice says when and offers "Stay signed in", which renews the session on the
 * server; at the end it says the session ended and links to signing in again, back to the page.
 * The page's clock is Chromium's, run forward; the server's session is set idle in the database.
 */
describe('the warning before an idle session ends', () => {
  let browser: Browser;
  const shots = new Screenshots('session-warning');

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** The session's last activity moved `minutes` into the past, as if nobody had done anything. */
  const idleFor = (db: DataSource, minutes: number) =>
    db.query(`UPDATE sessions SET last_seen_at = now() - make_interval(mins => $1) WHERE revoked_at IS NULL`, [minutes]);
  const idleMinutes = async (db: DataSource) =>
    Number(((await db.query(`SELECT max(extract(epoch FROM now() - last_seen_at) / 60) AS m FROM sessions WHERE revoked_at IS NULL`)) as { m: string }[])[0]!.m);

  async function warns(page: Page, db: DataSource, idle: number, name: string): Promise<void> {
    await page.clock.fastForward(idle * MINUTE - 2 * MINUTE + 1000);
    const notice = page.getByRole('alert').filter({ hasText: 'Your session ends at' });
    await expect.poll(() => notice.count()).toBe(1);
    await checkPage(page, shots, `${name}-warning`);
    await idleFor(db, idle - 1);
    await notice.getByRole('button', { name: 'Stay signed in' }).click();
    await expect.poll(() => notice.count()).toBe(0);
    expect(await idleMinutes(db), 'the session was renewed on the server').toBeLessThan(1);
    await page.clock.fastForward(idle * MINUTE + 1000);
    const ended = page.getByRole('alert').filter({ hasText: 'Your session has ended' });
    await expect.poll(() => ended.count()).toBe(1);
    await checkPage(page, shots, `${name}-ended`);
  }

  describe('console', () => {
    let app: ConsoleApp;
    let carla: StaffMember;
    let browsers: StaffBrowsers;

    beforeAll(async () => {
      app = await startConsoleApp();
      carla = await app.staff.staff(app.tenantId, ['ContactPerson'], { username: 'carla' });
      browsers = new StaffBrowsers(browser, app);
    }, 120_000);

    afterAll(async () => {
      await browsers?.close();
      await app?.close();
    });

    it('warns two minutes before the 15 idle minutes end, stays on request, then links to signing in again', { timeout: 90_000 }, async () => {
      const { page } = await browsers.open(carla);
      await page.clock.install();
      await page.goto(`${app.origin}/console/clients`);
      await warns(page, app.db, 15, 'console');
      const signIn = page.getByRole('link', { name: 'Sign in again' });
      expect(await signIn.getAttribute('href')).toBe(`/console/login?returnTo=${encodeURIComponent('/console/clients')}`);
      expect(await page.getByRole('alert').innerText()).toContain('a form you send from this page is kept');
    });

    it('the keep-alive answers 204 to a live session and sends anyone else to sign in', async () => {
      const agent = await app.staff.signIn(carla);
      await agent.get('/console/session/alive').expect(204);
      const response = await fetch(`${app.origin}/console/session/alive`, { redirect: 'manual' });
      expect(response.status).toBeGreaterThanOrEqual(300);
      expect(response.status).toBeLessThan(400);
    });
  });

  describe('web UI', () => {
    let app: INestApplication;
    let origin: string;
    let close: () => Promise<void>;

    beforeAll(async () => {
      let tenantId: string;
      ({ app, origin, tenantId, close } = await startListeningWebApp());
      await new WebClient(app, origin, tenantId).user('pat');
    }, 120_000);

    afterAll(async () => {
      await close?.();
    });

    it('warns two minutes before the 30 idle minutes end, stays on request, then links to logging in again', { timeout: 90_000 }, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      await logInInBrowser(page, `${origin}/login`, 'pat');
      await page.clock.install();
      await page.goto(`${origin}/docs`);
      await warns(page, app.get(DataSource), 30, 'web');
      expect(await page.getByRole('link', { name: 'Log in again' }).getAttribute('href')).toBe('/login?returnTo=/docs');
      expect((await fetch(`${origin}/session/alive`)).status).toBe(401);
      await context.close();
    });
  });
});
