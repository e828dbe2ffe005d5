import type { INestApplication } from '@nestjs/common';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, SYSTEM_ACTOR } from '@gatehouse/audit';
import { UserService } from '@gatehouse/accounts';
import { DocService } from '@gatehouse/docs';
import { InvitationService } from '@gatehouse/invitations';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { WIDTHS, seriousViolations } from './support/axe-check.js';
import { Screenshots, launchBrowser } from './support/browser.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { SmtpSink } from './support/smtp-sink.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { WebClient } from './support/web-client.js';

const PASSWORD = 'nine lanterns along the pier';

/**
 * The invitation pages of the Web UI in Chromium: choosing a first password through the invitation
 * link, dead and replaced links, and the password page's lockout message — each checked with
 * axe-core and photographed at 1280 and 390 px (test-artifacts/invitation-pages).
 */
describe('web UI: invitation pages in a browser', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let browser: Browser;
  let publicUrl: string;
  let tenantId: string;
  let contact: Actor;
  const sink = new SmtpSink();
  const shots = new Screenshots('invitation-pages');

  async function invitationLink(to: string): Promise<string> {
    await app.get(OutboxDeliveryService).deliverDue(50);
    const [mail] = (await sink.waitFor((m) => m.envelopeTo.includes(to) && m.text.includes('/invitations/'))).slice(-1);
    return new RegExp(`${publicUrl.replace(/[.:/]/g, '\\$&')}/invitations/[A-Za-z0-9_-]{43}`).exec(mail!.text)![0];
  }

  /** axe-core finds nothing serious, at both widths, and each width is photographed. */
  async function check(page: Page, name: string): Promise<void> {
    for (const size of WIDTHS) {
      await page.setViewportSize({ width: size.width, height: size.height });
      expect(await seriousViolations(page), `${name} at ${size.name} px`).toEqual([]);
      await shots.take(page, `${name}-${size.name}`);
    }
  }

  const newPage = async () => (await browser.newContext({ bypassCSP: true })).newPage();

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    app = await createIdentityApp({ config: testConfig(database.url, { publicUrl, smtpUrl: sink.url }), logDestination: new LogCapture() });
    await app.listen(port, '127.0.0.1');
    const [row] = await app.get(DataSource).query(`INSERT INTO tenants (slug, display_name) VALUES ('acme', 'Acme') RETURNING id`);
    tenantId = row.id;
    const carla = await app.get(UserService).create(tenantId, SYSTEM_ACTOR, {
      username: 'carla',
      email: 'carla@acme.example',
      displayName: 'Carla',
      roles: ['ContactPerson'],
      password: 'none',
    });
    contact = { type: 'user', userId: carla.id, clientId: null, permissions: ['Users.Manage', 'Invitations.Manage', 'Docs.Manage'] };
    await app.get(DocService).create(tenantId, contact, { slug: 'handbook', title: 'Partner handbook', body: '# Welcome' });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await sink.stop();
    await database?.drop();
  });

  it('the accessibility check can fail: it finds an image without alt text', async () => {
    const page = await newPage();
    await page.setContent('<!doctype html><html lang="en"><title>x</title><main><img src="x.png"></main></html>');
    expect((await seriousViolations(page)).join()).toContain('image-alt');
  });

  it('a partner without a password: the invitation link asks for one, signs them in, and they accept', async () => {
    const user = await app.get(UserService).create(tenantId, contact, { username: 'pia', email: 'pia@example.com', displayName: 'Pia Partner' });
    await app.get(InvitationService).create(tenantId, contact, { userId: user.id, sections: ['handbook'] });
    const link = await invitationLink('pia@example.com');
    const page = await newPage();
    expect((await page.goto(link))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Choose your password');
    await check(page, 'choose-password');
    await page.getByLabel(/^New password/).fill('pia likes the sea air');
    await page.getByLabel('Repeat the new password').fill('pia likes the sea air');
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('must not contain "pia"');
    await check(page, 'choose-password-refused');
    await page.getByLabel(/^New password/).fill(PASSWORD);
    await page.getByLabel('Repeat the new password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await page.getByRole('button', { name: 'Accept' }).waitFor();
    await expect(page.locator('main li').allTextContents()).resolves.toEqual(['Partner handbook']);
    await check(page, 'accept-after-password');
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL((url) => url.pathname === '/docs');
    await expect(page.getByRole('link', { name: 'Partner handbook' }).count()).resolves.toBe(1);
  });

  it('a replaced link and a used link say so to a visitor who is not signed in', async () => {
    const user = await app.get(UserService).create(tenantId, contact, { username: 'rob', email: 'rob@example.com', displayName: 'Rob', password: 'generate' });
    const invitation = await app.get(InvitationService).create(tenantId, contact, { userId: user.id, sections: ['handbook'] });
    const first = await invitationLink('rob@example.com');
    await app.get(InvitationService).resend(tenantId, contact, invitation.id);
    const page = await newPage();
    expect((await page.goto(first))?.status()).toBe(410);
    await expect(page.locator('main').textContent()).resolves.toContain('A newer link was sent to you on');
    await expect(page.locator('main').textContent()).resolves.not.toContain('Partner handbook');
    await check(page, 'link-replaced');
    await app.get(InvitationService).revoke(tenantId, contact, invitation.id);
    expect((await page.goto(await invitationLink('rob@example.com')))?.status()).toBe(410);
    await expect(page.locator('main').textContent()).resolves.toContain('withdrawn');
    await expect(page.locator('main').textContent()).resolves.toContain('Please ask Carla (carla@acme.example) for a new invitation.');
    await check(page, 'link-withdrawn');
  });

  it('the password page says for how long the account is locked after wrong current passwords', async () => {
    const web = new WebClient(app, publicUrl, tenantId);
    await web.user('lou');
    const page = await newPage();
    await page.goto(`${publicUrl}/login?returnTo=/password`);
    await page.getByLabel('Username').fill('lou');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/password');
    for (let attempt = 1; attempt <= 5; attempt++) {
      await app.get(DataSource).query(`UPDATE users SET locked_until = NULL WHERE username = 'lou'`); // skip the short waits
      await page.getByLabel('Current password').fill('not my password at all');
      await page.getByLabel(/^New password/).fill(PASSWORD);
      await page.getByLabel('Repeat the new password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('alert').waitFor();
    }
    await expect(page.locator('main').textContent()).resolves.toMatch(/locked for .* \(until \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    await check(page, 'password-locked');
  });
});
