import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordResetService } from '@gatehouse/accounts';
import { AccessApps } from './support/access-apps.js';
import { Screenshots, launchBrowser } from './support/browser.js';
import { checkPage } from './support/page-checks.js';
import { WEB_PASSWORD, WebClient } from './support/web-client.js';

const NEW_PASSWORD = 'willow barges drift past noon';
const shots = new Screenshots('password-reset-journey');

/**
 * "Forgot your password?" as a partner lives it, in Chromium: from the login page to the mail (read
 * from a real SMTP server), the link, a new password, every old session ended, logging in with it;
 * then the used, replaced and expired links say so and lead to a new one.
 */
describe('password reset journey', () => {
  const apps = new AccessApps();
  let web: WebClient;
  let browser: Browser;
  let page: Page;
  let link: string;

  beforeAll(async () => {
    await apps.start();
    web = new WebClient(apps.identity, apps.publicUrl, apps.tenant.tenantId);
    await web.user('pat');
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await apps.stop();
  });

  /** The worker's pass, then the mail to Pat that carries a reset link. */
  async function resetMail(after: number) {
    await apps.identity.get(PasswordResetService).processDue();
    await apps.deliver();
    const [mail] = (await apps.sink.waitFor((m) => m.envelopeTo.includes('pat@example.com') && m.subject === 'Reset your password', after + 1)).slice(after);
    return mail!;
  }
  const resetMails = () => apps.sink.messages.filter((m) => m.subject === 'Reset your password').length;

  async function askFor(identifier: string) {
    await page.goto(`${apps.publicUrl}/password-reset`);
    await page.getByLabel('Username or email address').fill(identifier);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.waitForURL((url) => url.pathname === '/password-reset/sent');
  }

  it('the login page leads to the reset form and to the request form', async () => {
    await page.goto(`${apps.publicUrl}/login`);
    await expect(page.locator('main').textContent()).resolves.not.toContain('contact person');
    expect(await page.getByRole('link', { name: 'Request access' }).getAttribute('href')).toBe('/request-access');
    await checkPage(page, shots, 'login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL((url) => url.pathname === '/password-reset');
    await checkPage(page, shots, 'password-reset-request');
  });

  it('asking by username answers the same page and mails a one-hour link', async () => {
    const before = resetMails();
    await page.getByLabel('Username or email address').fill('pat');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.waitForURL((url) => url.pathname === '/password-reset/sent');
    await expect(page.getByRole('status').textContent()).resolves.toContain('If an account matches what you entered');
    await checkPage(page, shots, 'password-reset-sent');
    const mail = await resetMail(before);
    expect(mail.text).toContain('your account pat');
    link = apps.linkIn(mail, 'password-reset');
    expect(link.split('/').pop()).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    const [row] = await apps.dataSource.query(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 60) AS minutes, token_hash FROM account_links WHERE purpose = 'self_service_reset'`,
    );
    expect(Number(row.minutes)).toBe(60);
    expect((row.token_hash as Buffer).toString('utf8')).not.toContain(link.split('/').pop());
  });

  it('the link sets a new password once; every old session ends; the new password logs in', async () => {
    const old = await web.login('pat');
    expect(await web.alive(old.agent)).toBe(true);
    await page.goto(link);
    await page.goto(link); // a GET only shows the page (mail scanners prefetch links)
    await checkPage(page, shots, 'password-reset-choose');
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat the new password').fill('short');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.locator('#new-password-error').textContent()).resolves.toMatch(/at least 15 characters/);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('every session of your account has ended');
    await checkPage(page, shots, 'password-reset-done');
    expect(await web.alive(old.agent)).toBe(false);
    expect((await web.login('pat', WEB_PASSWORD)).res.status).toBe(401);
    await page.getByRole('link', { name: 'Log in' }).first().click();
    await page.getByLabel('Username').fill('pat');
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/docs');
    const changed = await apps.mailTo('pat@example.com', /Your password was changed/);
    expect(changed.text).toContain('pat');
    const events = await apps.dataSource.query(
      `SELECT action, details->>'purpose' AS purpose FROM audit_events WHERE action LIKE 'user.password.%' ORDER BY occurred_at`,
    );
    expect(events).toEqual([
      { action: 'user.password.reset_requested', purpose: null },
      { action: 'user.password.set_by_link', purpose: 'self_service_reset' },
    ]);
  });

  it('a used link is dead and leads to a new one', async () => {
    const response = await page.goto(link);
    expect(response!.status()).toBe(410);
    await expect(page.locator('main').textContent()).resolves.toContain('already been used');
    await checkPage(page, shots, 'password-reset-used');
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await page.waitForURL((url) => url.pathname === '/password-reset');
  });

  it('a newer link replaces the older one; an expired link says it works for an hour', async () => {
    let before = resetMails();
    await askFor('pat@example.com');
    const older = apps.linkIn(await resetMail(before), 'password-reset');
    before = resetMails();
    await askFor('PAT');
    const newer = apps.linkIn(await resetMail(before), 'password-reset');
    expect((await page.goto(older))!.status()).toBe(410);
    await expect(page.locator('main').textContent()).resolves.toContain('a newer link replaced it');
    await apps.dataSource.query(`UPDATE account_links SET expires_at = now() - interval '1 minute' WHERE used_at IS NULL`);
    expect((await page.goto(newer))!.status()).toBe(410);
    await expect(page.locator('main').textContent()).resolves.toContain('This link has expired: it works for one hour.');
    await checkPage(page, shots, 'password-reset-expired');
  });

  // UPDATE_DOCS_SCREENSHOTS=1: the pictures in docs/ are replaced by this run's (else every run would change them).
  it.runIf(process.env.UPDATE_DOCS_SCREENSHOTS)('keeps the final pictures of the password-reset pages in docs/', () => {
    const dir = join(import.meta.dirname, '..', 'test-artifacts', 'password-reset-journey');
    for (const file of readdirSync(dir).filter((name) => /password-reset-(request|choose)/.test(name))) {
      copyFileSync(join(dir, file), join(import.meta.dirname, '..', 'docs', file.replace(/^\d+-/, '')));
    }
  });
});
