import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@gatehouse/config';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type ConsoleFixtures, signInInBrowser, startConsoleApp } from './support/console.js';
import { cli } from './support/operator-cli.js';
import { NARROW, WIDE, checkPage } from './support/page-checks.js';
import { authenticatorApp } from './support/totp.js';

const PASSWORD = 'nine lighthouses along the coast';

/** The console's sign-in in Chromium: first sign-in from the invitation link, keyboard only, axe-core, 1280 and 390 px. */
describe('console sign-in in a browser', () => {
  let app: ConsoleApp;
  let admin: INestApplication;
  let config: AppConfig;
  let origin: string;
  let browser: Browser;
  let staff: ConsoleFixtures;
  let tenantId: string;
  const shots = new Screenshots('console-sign-in');

  beforeAll(async () => {
    app = await startConsoleApp({ slug: 'default' });
    ({ admin, config, origin, staff, tenantId } = app);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('first sign-in from the link: password, authenticator app, recovery codes, Overview', async () => {
    const { stdout } = await cli(config, ['operator', 'invite', '--tenant', 'default', '--email', 'grace@example.com', '--role', 'Administrator', '--display-name', 'Grace Hopper']);
    const link = /(http:\S+\/console\/activate\/\S+)/.exec(stdout)![1]!;
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await page.goto(link);
    await checkPage(page, shots, 'activation');
    await page.getByLabel(/^New password/).fill(PASSWORD);
    await page.getByLabel('Repeat the new password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await page.waitForURL((url) => url.pathname === '/console/enroll');
    await expect(page.getByRole('button', { name: 'Copy setup key' }).count()).resolves.toBe(1); // the script runs under the CSP
    await checkPage(page, shots, 'enrol');
    const app = authenticatorApp((await page.locator('[data-secret]').getAttribute('data-secret'))!);
    await page.getByLabel('Code from the app').fill(app.code());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await expect(page.getByRole('list', { name: 'Recovery codes' }).locator('li').count()).resolves.toBe(10);
    await checkPage(page, shots, 'recovery-codes');
    await page.getByRole('link', { name: /continue to the console/ }).click();
    await page.waitForURL((url) => url.pathname === '/console');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    await expect(page.getByText('Signed in as').textContent()).resolves.toContain('Grace Hopper');
    await checkPage(page, shots, 'overview');
    // New recovery codes from My account: shown once, as a GET after the POST (a reload shows them no more).
    await page.goto(page.url() + '/account');
    await page.getByRole('button', { name: 'Make new recovery codes' }).click();
    await page.getByRole('heading', { name: 'Your new recovery codes' }).waitFor();
    await expect(page.getByRole('list', { name: 'Recovery codes' }).locator('li').count()).resolves.toBe(10);
    expect(new URL(page.url()).pathname).toMatch(/^\/console\/results\//);
    await checkPage(page, shots, 'new-recovery-codes');
    await page.reload();
    await page.getByRole('heading', { name: 'Shown once already' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/console/login');
  });

  it('signs in with the keyboard alone, with a visible focus ring', async () => {
    const member = await staff.staff(tenantId, ['ContactPerson'], { username: 'kay' });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await page.goto(`${origin}/console/login`);
    await checkPage(page, shots, 'login');
    await page.keyboard.type(member.username); // the username field has the focus on arrival
    await page.keyboard.press('Tab');
    const outline = await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
    await page.keyboard.type('wrong password for kay');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').waitFor();
    await checkPage(page, shots, 'login-refused');
    await page.keyboard.press('Tab'); // focus back to the password, the username kept
    await expect(page.getByLabel('Username').inputValue()).resolves.toBe('kay');
    await page.getByLabel('Password', { exact: true }).focus();
    await page.keyboard.type(member.password);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/console/login/code');
    await checkPage(page, shots, 'code');
    await page.keyboard.type(await staff.freshCode(member));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/console');
    await page.setViewportSize(NARROW);
    await page.getByText('Menu').click();
    await shots.take(page, 'menu-open-390');
  });

  it('an Administrator invites staff and changes a role; the step-up is asked inline and the change continues', async () => {
    const boss = await staff.staff(tenantId, ['Administrator'], { username: 'boss' });
    const audra = await staff.staff(tenantId, ['Auditor'], { username: 'audra' });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${origin}/console/login`, boss, await staff.secondFactor(boss));
    await page.getByRole('link', { name: 'Staff' }).click();
    await page.waitForURL((url) => url.pathname === '/console/staff');
    await checkPage(page, shots, 'staff-list');
    await page.getByRole('link', { name: 'Invite staff' }).click();
    await page.getByLabel('Email address').fill('lin@acme');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await expect(page.getByLabel('Email address').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel('Role').getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage(page, shots, 'staff-invite-refused');
    await page.getByLabel('Email address').fill('lin@acme.example');
    await page.getByLabel('Role').selectOption('ITDepartment');
    await page.getByLabel('Name (optional)', { exact: true }).fill('Lin Ito');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByRole('heading', { name: 'Lin Ito' }).waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Invitation sent to lin@acme.example');
    await checkPage(page, shots, 'staff-member');

    await admin.get(DataSource).query(`UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1`, [boss.id]);
    await page.getByLabel(/^Auditor/).check();
    await page.getByRole('button', { name: 'Save roles' }).click();
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    await checkPage(page, shots, 'step-up');
    await page.getByLabel('Authentication code').fill(await staff.secondFactor(boss));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.getByRole('heading', { name: 'Lin Ito' }).waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('now holds: IT department and Auditor');
    expect(await page.getByRole('link', { name: 'Reset second factor…' }).count()).toBe(0); // Lin has none yet
    await page.goto(`${origin}/console/staff/${audra.id}`);
    await page.getByRole('link', { name: 'Reset second factor…' }).click();
    await checkPage(page, shots, 'reset-confirmation');
    await page.getByRole('link', { name: 'My account' }).click();
    await checkPage(page, shots, 'my-account');
    await page.getByRole('link', { name: 'Change password' }).click();
    await checkPage(page, shots, 'my-password');
    await page.goto(`${origin}/console/no-such-page`);
    await checkPage(page, shots, 'not-found');
  });

  it('a forced URL shows the 403 page in the frame, with only the allowed navigation', async () => {
    const auditor = await staff.staff(tenantId, ['Auditor']);
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${origin}/console/login`, auditor, await staff.secondFactor(auditor));
    expect((await page.goto(`${origin}/console/staff`))?.status()).toBe(403);
    const links = await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
    expect(links[0]).toBe('Overview');
    expect(links.map((l) => l.replace(/\d.*$/, ''))).toContain('Users'); // Users.Read: an Auditor reads users
    expect(links).not.toContain('Staff'); // Tenant.Manage only
    await checkPage(page, shots, 'forbidden');
  });

  it('keeps a screenshot of the sign-in page for the README and docs/operators.md', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1024, height: 560 } })).newPage();
    await page.goto(`${origin}/console/login`);
    await page.screenshot({ path: join(import.meta.dirname, '..', 'test-artifacts', 'console-sign-in', 'readme-sign-in.png') });
  });
});
