import type { INestApplication } from '@nestjs/common';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { Screenshots, launchBrowser } from './support/browser.js';
import { ConsoleFixtures } from './support/console.js';
import { freePort } from './support/http-apps.js';
import { WIDE, checkPage } from './support/page-checks.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

/**
 * The Web UI sign-in of a person who holds a role, in Chromium (SECURITY 58): the code step after
 * the password, its refusal beside the field, and the page for someone without a second factor
 * yet — axe-core and screenshots at 1280 and 390 px.
 */
describe('web UI: staff sign in with their second factor', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let browser: Browser;
  let origin: string;
  let staff: ConsoleFixtures;
  let tenantId: string;
  const shots = new Screenshots('web-staff-sign-in');

  async function logIn(page: Page, username: string, password: string): Promise<void> {
    await page.goto(`${origin}/docs`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    app = await createIdentityApp({ config: testConfig(database.url, { publicUrl: origin }) });
    await app.listen(port, '127.0.0.1');
    [{ id: tenantId }] = await app.get(DataSource).query(`INSERT INTO tenants (slug, display_name) VALUES ('acme', 'Acme') RETURNING id`);
    staff = new ConsoleFixtures(app, origin);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await database?.drop();
  });

  it('the password, then the code (a wrong one said beside the field), then the page asked for', async () => {
    const ada = await staff.staff(tenantId, ['Administrator'], { username: 'ada' });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await logIn(page, 'ada', ada.password);
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
    await logIn(page, 'nell', nell.password);
    await page.getByRole('heading', { name: 'Set up your second factor first' }).waitFor();
    await checkPage(page, shots, 'enrol-first');
  });
});
