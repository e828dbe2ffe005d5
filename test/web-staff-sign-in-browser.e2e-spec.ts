import type { INestApplication } from '@nestjs/common';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Screenshots, launchBrowser } from './support/browser.js';
import { ConsoleFixtures } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';
import { logInInBrowser, startListeningWebApp } from './support/web-client.js';

/**
 * The Web UI sign-in of a person who holds a role, in Chromium (SECURITY 58): the code step after
 * the password, its refusal beside the field, and the page for someone without a second factor
 * yet — axe-core and screenshots at 1280 and 390 px.
 */
describe('web UI: staff sign in with their second factor', () => {
  let close: () => Promise<void>;
  let browser: Browser;
  let origin: string;
  let staff: ConsoleFixtures;
  let tenantId: string;
  const shots = new Screenshots('web-staff-sign-in');

  beforeAll(async () => {
    let app: INestApplication;
    ({ app, origin, tenantId, close } = await startListeningWebApp());
    staff = new ConsoleFixtures(app, origin);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await close?.();
  });

  it('the password, then the code (a wrong one said beside the field), then the page asked for', async () => {
    const ada = await staff.staff(tenantId, ['Administrator'], { username: 'ada' });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await logInInBrowser(page, `${origin}/docs`, 'ada', ada.password);
    await page.waitForURL((url) => url.pathname === '/login/code');
    await checkPage(page, shots, 'code');
    await page.getByLabel('Authentication code').fill(ada.app!.wrongCode());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('That code did not work').waitFor();
    expect(await page.getByLabel('Authentication code').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, shots, 'code-refused');
    await page.getByLabel('Authentication code').fill(await staff.freshCode(ada));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/docs');
    await page.getByRole('heading', { name: 'Documentation' }).waitFor();
  });

  it('someone with a role and no second factor yet is sent to the console first', async () => {
    const nell = await staff.staff(tenantId, ['ContactPerson'], { username: 'nell', enrol: false });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await logInInBrowser(page, `${origin}/docs`, 'nell', nell.password);
    await page.getByRole('heading', { name: 'Set up your second factor first' }).waitFor();
    await checkPage(page, shots, 'enrol-first');
  });
});
