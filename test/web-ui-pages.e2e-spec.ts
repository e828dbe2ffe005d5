import type { INestApplication } from '@nestjs/common';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, SYSTEM_ACTOR } from '@gatehouse/audit';
import { UserService } from '@gatehouse/accounts';
import { DocService } from '@gatehouse/docs';
import { InvitationService } from '@gatehouse/invitations';
import { Screenshots, launchBrowser } from './support/browser.js';
import { NARROW, WIDE, checkPage, expectAccessible, scrollsSideways } from './support/page-checks.js';
import { WEB_PASSWORD, WebClient, logInInBrowser, startListeningWebApp } from './support/web-client.js';

const NEW_PASSWORD = 'eleven quiet otters swimming';

/**
 * The Web UI's pages in Chromium on the shared view layer: axe-core and screenshots at 1280 and
 * 390 px for each, and the fixes of a newcomer's first hour (header at 390 px, password change
 * reachable and confirmed, one title per section, errors tied to their fields).
 */
describe('web UI pages in a browser', () => {
  let app: INestApplication;
  let close: () => Promise<void>;
  let browser: Browser;
  let origin: string;
  let web: WebClient;
  let tenantId: string;
  const shots = new Screenshots('web-ui');

  const logIn = (page: Page, username: string, password = WEB_PASSWORD) => logInInBrowser(page, `${origin}/login`, username, password);

  beforeAll(async () => {
    ({ app, origin, tenantId, close } = await startListeningWebApp());
    web = new WebClient(app, origin, tenantId);
    const carla = await app.get(UserService).create(tenantId, SYSTEM_ACTOR, {
      username: 'carla',
      email: 'carla@acme.example',
      displayName: 'Carla',
      roles: ['ContactPerson'],
    });
    const contact: Actor = { type: 'user', userId: carla.id, clientId: null, permissions: ['Docs.Manage'] };
    await app.get(DocService).create(tenantId, contact, {
      slug: 'getting-started',
      title: 'Getting started',
      body: '# Getting started\n\nFirst steps with the **Orders API**.\n\n# Tokens\n\nAsk the token endpoint.',
    });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await close?.();
  });

  it('logged in at 390 px: the header fits with Log out in view; the Menu button holds the links', async () => {
    const user = await web.user('wilhelmina-longname');
    await app.get(DataSource).query(`UPDATE users SET display_name = 'Wilhelmina Longname-Featherstonehaugh' WHERE id = $1`, [
      user.id,
    ]);
    const page = await (await browser.newContext({ viewport: NARROW })).newPage();
    await logIn(page, 'wilhelmina-longname');
    await page.waitForURL((url) => url.pathname === '/docs');
    expect(await scrollsSideways(page)).toBe(false);
    const header = await page.locator('header').boundingBox();
    expect(header!.width).toBeLessThanOrEqual(NARROW.width);
    const logOut = await page.getByRole('button', { name: 'Log out' }).boundingBox();
    expect(logOut!.x + logOut!.width).toBeLessThanOrEqual(NARROW.width);
    await page.getByText('Menu').click();
    await expect(page.getByRole('link', { name: 'Change password' }).isVisible()).resolves.toBe(true);
    await shots.take(page, 'menu-open-390');
    await page.getByRole('link', { name: 'Change password' }).click();
    await page.waitForURL((url) => url.pathname === '/password');
  });

  it('links the password change from the header, ties errors to their fields, and confirms the change', async () => {
    await web.user('peter');
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await page.goto(`${origin}/login`);
    await checkPage(page, shots, 'login');
    await page.getByLabel('Username').fill('peter');
    await page.getByLabel('Password', { exact: true }).fill('not his password at all');
    await page.getByRole('button', { name: 'Log in' }).click();
    const username = page.getByLabel('Username');
    await expect(username.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(username.getAttribute('aria-describedby')).resolves.toBe('form-error');
    await expect(username.inputValue()).resolves.toBe('peter');
    await expect(page.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('');
    await checkPage(page, shots, 'login-failed');

    await logIn(page, 'peter');
    await page.waitForURL((url) => url.pathname === '/docs');
    await checkPage(page, shots, 'docs-list');
    await page.getByRole('link', { name: 'Change password' }).click();
    await page.waitForURL((url) => url.pathname === '/password');
    await checkPage(page, shots, 'password');
    await page.getByLabel('Current password').fill('wrong current password');
    await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    const current = page.getByLabel('Current password');
    await expect(current.getAttribute('aria-invalid')).resolves.toBe('true');
    const described = (await current.getAttribute('aria-describedby'))!;
    await expect(page.locator(`[id="${described}"]`).textContent()).resolves.toContain('current password is incorrect');
    await expect(page.getByLabel('Repeat the new password').getAttribute('aria-invalid')).resolves.toBeNull();
    await checkPage(page, shots, 'password-refused');

    await page.getByLabel('Current password').fill(WEB_PASSWORD);
    await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(`${NEW_PASSWORD}!`);
    await page.getByRole('button', { name: 'Change password' }).click();
    const repeat = page.getByLabel('Repeat the new password');
    await expect(repeat.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator('#confirm-password-error').textContent()).resolves.toContain('do not match');

    await page.getByLabel('Current password').fill(WEB_PASSWORD);
    await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL((url) => url.pathname === '/docs');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Your password has been changed');
    await checkPage(page, shots, 'password-changed');
    await page.reload();
    await expect(page.getByRole('status').count()).resolves.toBe(0); // shown once
  });

  it('shows a section title once, with one h1 per page', async () => {
    const user = await web.user('sofia');
    const invitation = await app
      .get(InvitationService)
      .create(tenantId, SYSTEM_ACTOR, { userId: user.id, sections: ['getting-started'] });
    await app.get(DataSource).query(`UPDATE invitations SET status = 'accepted' WHERE id = $1`, [invitation.id]);
    await app
      .get(DataSource)
      .query(
        `INSERT INTO doc_section_grants (tenant_id, user_id, section_id) SELECT tenant_id, $1, id FROM doc_sections WHERE slug = 'getting-started'`,
        [user.id],
      );
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await logIn(page, 'sofia');
    await page.waitForURL((url) => url.pathname === '/docs');
    await page.getByRole('link', { name: 'Getting started' }).click();
    await expect(page.locator('h1').allTextContents()).resolves.toEqual(['Getting started']);
    await expect(page.getByText('Getting started', { exact: true }).count()).resolves.toBe(1);
    await expect(page.locator('article h2').allTextContents()).resolves.toEqual(['Tokens']);
    await checkPage(page, shots, 'section');
  });

  it('the axe-core check fails on a page with a serious violation (it can fail)', async () => {
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await page.setContent('<html lang="en"><title>x</title><main><input type="text"></main></html>');
    await expect(expectAccessible(page, 'a form field without a label')).rejects.toThrow(/label/);
  });

  it('the other pages of the Web UI pass axe-core at both widths', async () => {
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    expect((await page.goto(`${origin}/no-such-page`))?.status()).toBe(404);
    await checkPage(page, shots, 'not-found');
    expect((await page.goto(`${origin}/activate/not-a-real-token`))?.status()).toBe(404);
    await expectAccessible(page, 'unknown activation link');
  });
});
