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
import { Screenshots, launchBrowser } from './support/browser.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { SmtpSink } from './support/smtp-sink.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

const NEW_PASSWORD = 'seven blue herons over the lake';

/** The whole Web UI journey in real Chromium: mail link → login → forced change → accept → docs → logout. */
describe('web UI in a browser', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let browser: Browser;
  let publicUrl: string;
  let tenantId: string;
  let contact: Actor;
  const sink = new SmtpSink();
  const logs = new LogCapture();

  /** Delivers the outbox to the SMTP sink and returns the link of the newest mail to `to`. */
  async function linkMailedTo(to: string, path: 'invitations' | 'activate'): Promise<string> {
    await app.get(OutboxDeliveryService).deliverDue();
    const [mail] = (await sink.waitFor((m) => m.envelopeTo.includes(to) && m.text.includes(`/${path}/`))).slice(-1);
    const link = new RegExp(`${publicUrl.replace(/[.:/]/g, '\\$&')}/${path}/[A-Za-z0-9_%-]+`).exec(mail!.text)?.[0];
    expect(link).toBeTruthy();
    return link!;
  }

  async function logIn(page: Page, username: string, password: string) {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    app = await createIdentityApp({
      config: testConfig(database.url, { publicUrl, smtpUrl: sink.url }),
      logDestination: logs,
    });
    await app.listen(port, '127.0.0.1');
    const [row] = await app
      .get(DataSource)
      .query(`INSERT INTO tenants (slug, display_name) VALUES ('acme', 'Acme') RETURNING id`);
    tenantId = row.id;
    const carla = await app.get(UserService).create(tenantId, SYSTEM_ACTOR, {
      username: 'carla',
      email: 'carla@acme.example',
      displayName: 'Carla',
      roles: ['ContactPerson'],
    });
    contact = {
      type: 'user',
      userId: carla.id,
      clientId: null,
      permissions: ['Users.Read', 'Users.Manage', 'Invitations.Manage', 'Docs.Manage'],
    };
    const docs = app.get(DocService);
    await docs.create(tenantId, contact, {
      slug: 'getting-started',
      title: 'Getting started',
      body: '# Welcome\n\nFirst steps with the **Orders API**.',
    });
    await docs.create(tenantId, contact, {
      slug: 'api-guide',
      title: 'API guide',
      body: '## Tokens\n\nUse the token endpoint.\n\n<script>alert(1)</script>',
    });
    await docs.create(tenantId, contact, { slug: 'internal', title: 'Internal notes', body: 'Not for customers.' });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await sink.stop();
    await database?.drop();
  });

  it('follows an invitation: login prompt, forced password change, accept, read, log out, link is gone', async () => {
    const shots = new Screenshots('invitation-journey');
    const walter = await app.get(UserService).create(tenantId, contact, {
      username: 'walter',
      email: 'walter@example.com',
      displayName: 'Walter White',
      password: 'generate',
    });
    await app
      .get(InvitationService)
      .create(tenantId, contact, { userId: walter.id, sections: ['getting-started', 'api-guide'] });
    const link = await linkMailedTo('walter@example.com', 'invitations');
    const page = await (await browser.newContext()).newPage();

    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/login');
    await expect(page.getByRole('link', { name: 'Log in' }).count()).resolves.toBe(1);
    await shots.take(page, 'login-prompt');
    await logIn(page, 'walter', walter.initialPassword!);
    await page.waitForURL((url) => url.pathname === '/password');
    await shots.take(page, 'forced-password-change');
    await page.getByLabel('Current password').fill(walter.initialPassword!);
    await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();

    await page.waitForURL(link);
    expect((await page.locator('main li').allTextContents()).sort()).toEqual(['API guide', 'Getting started']);
    await shots.take(page, 'invitation');
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL((url) => url.pathname === '/docs');
    await expect(page.locator('main li').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['Getting started', 'API guide']),
    );
    await expect(page.getByText('Internal notes').count()).resolves.toBe(0);
    await shots.take(page, 'docs');
    await page.getByRole('link', { name: 'API guide' }).click();
    await expect(page.locator('article h2').textContent()).resolves.toBe('Tokens');
    await expect(page.locator('article script').count()).resolves.toBe(0);
    await shots.take(page, 'section');
    expect((await page.goto(`${publicUrl}/docs/internal`))?.status()).toBe(404);

    await page.goto(`${publicUrl}/docs`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await shots.take(page, 'logged-out');
    const goneAnonymously = await page.goto(link); // a used link says so to anyone, without naming a section
    expect(goneAnonymously?.status()).toBe(410);
    await expect(page.locator('main').textContent()).resolves.toContain('already been used');
    await expect(page.locator('main').textContent()).resolves.not.toContain('Getting started');
    await shots.take(page, 'link-gone-anonymous');
    await page.goto(`${publicUrl}/login`);
    await logIn(page, 'walter', NEW_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/docs');
    const gone = await page.goto(link);
    expect(gone?.status()).toBe(410);
    expect(gone?.headers()['referrer-policy']).toBe('no-referrer');
    expect(gone?.headers()['cache-control']).toBe('no-store');
    await expect(page.locator('main').textContent()).resolves.toContain('already been used');
    await expect(page.getByRole('button', { name: 'Log out' }).count()).resolves.toBe(1);
    await shots.take(page, 'link-gone');
  });

  it('sets a password from an activation link, once', async () => {
    const shots = new Screenshots('activation-journey');
    await app.get(UserService).create(tenantId, contact, {
      username: 'jesse',
      email: 'jesse@example.com',
      displayName: 'Jesse',
      password: 'activation-link',
    });
    const link = await linkMailedTo('jesse@example.com', 'activate');
    const page = await (await browser.newContext()).newPage();
    const first = await page.goto(link);
    expect(first?.status()).toBe(200);
    await shots.take(page, 'activation-form');
    await page.getByLabel(/^New password/).fill('jesse pinkman rules all');
    await page.getByLabel('Repeat the new password').fill('jesse pinkman rules all');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('must not contain "jesse"');
    await shots.take(page, 'activation-refused');
    await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Password set' }).waitFor();
    await shots.take(page, 'activation-done');
    expect((await page.goto(link))?.status()).toBe(410);
    await shots.take(page, 'activation-used');
    await page.goto(`${publicUrl}/login`);
    await logIn(page, 'jesse', NEW_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/docs');
    await expect(page.getByText('Signed in as').textContent()).resolves.toContain('Jesse');
    await shots.take(page, 'activation-logged-in');
  });
});
