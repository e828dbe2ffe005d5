import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { DocService } from '@gatehouse/docs';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type ConsoleFixtures, type StaffMember, signInInBrowser, startConsoleApp } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';

/** Moves the focus with Tab alone until `name` is focused; each stop must show a focus ring. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let step = 0; step < 80; step += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<{ text: string; outline: string }>(
      `({ text: (document.activeElement.textContent || document.activeElement.value || '').trim(), outline: getComputedStyle(document.activeElement).outlineStyle })`,
    );
    if (focused.text === name) {
      expect(focused.outline, `focus ring on ${name}`).not.toBe('none');
      return;
    }
  }
  throw new Error(`Tab never reached ${name}`);
}

/** Documentation, Email and Audit in Chromium: axe-core and screenshots at 1280 and 390 px, a keyboard-only retry. */
describe('console records pages in a browser', () => {
  let app: ConsoleApp;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let origin: string;
  let browser: Browser;
  let rita: StaffMember;
  let page: Page;
  const shots = new Screenshots('console-records');

  beforeAll(async () => {
    app = await startConsoleApp();
    ({ db, staff, tenantId, origin } = app);
    rita = await staff.staff(tenantId, ['Administrator'], { username: 'rita' });
    await app.admin.get(DocService).create(tenantId, SYSTEM_ACTOR, {
      slug: 'orders-api',
      title: 'Orders API',
      body: '# Orders API\n\nCall **POST /orders** with a token.\n\n```\ncurl -X POST https://api.example.com/orders\n```\n\n<script>alert(1)</script>',
    });
    await db.query(
      `INSERT INTO emails (id, tenant_id, to_address, subject, text_body, html_body, template, status, attempts, last_error, created_at)
       SELECT gen_random_uuid(), $1, 'partner' || i || '@very-long-partner-domain.example.com', 'Your invitation to the Orders API documentation ' || i, '\\x00', '\\x00', 'invitation',
              CASE WHEN i % 3 = 0 THEN 'abandoned' ELSE 'sent' END, CASE WHEN i % 3 = 0 THEN 8 ELSE 1 END,
              CASE WHEN i % 3 = 0 THEN '550 5.1.1 <partner' || i || '@very-long-partner-domain.example.com>: Recipient address rejected: User unknown in virtual mailbox table' END,
              now() - make_interval(mins => i)
         FROM generate_series(1, 8) i`,
      [tenantId],
    );
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${origin}/console/login`, rita, await staff.secondFactor(rita));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('Documentation: list, editor with preview, a section with its readers, delete confirmation', async () => {
    await page.getByRole('link', { name: 'Documentation' }).click();
    await page.waitForURL((url) => url.pathname === '/console/docs');
    await checkPage(page, shots, 'docs-list');
    await page.getByRole('link', { name: 'New section' }).click();
    await page.getByLabel('Slug').fill('Bad Slug');
    await page.getByLabel('Title').fill('Billing');
    await page.getByLabel('Text (Markdown)').fill('## Invoices\n\n- monthly\n- [portal](https://billing.example.com)');
    await page.getByRole('button', { name: 'Create section' }).click();
    await expect(page.getByLabel('Slug').getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage(page, shots, 'docs-new-refused');
    await page.getByLabel('Slug').fill('billing');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Invoices' }).waitFor();
    await checkPage(page, shots, 'docs-new-preview');
    await page.getByRole('button', { name: 'Create section' }).click();
    await page.waitForURL((url) => url.pathname === '/console/docs/billing');
    await page.getByRole('link', { name: 'Documentation' }).first().click();
    await page.getByRole('link', { name: 'Orders API' }).click();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Preview' }).waitFor();
    expect(await page.locator('.preview script').count()).toBe(0);
    await checkPage(page, shots, 'docs-section-preview');
    await page.getByRole('link', { name: 'Delete…' }).click();
    await checkPage(page, shots, 'docs-delete');
  });

  it('Email: the outbox and one abandoned mail, retried with the keyboard alone', async () => {
    await page.goto(`${origin}/console/email`);
    await expect(page.getByRole('link', { name: /^Email/ }).textContent()).resolves.toContain('2');
    await checkPage(page, shots, 'email-list');
    await page.getByLabel('Status').selectOption('abandoned');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.search === '?status=abandoned');
    await checkPage(page, shots, 'email-abandoned');

    await page.goto(`${origin}/console/email?status=abandoned`);
    await tabTo(page, 'Your invitation to the Orders API documentation 3');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => /\/console\/email\/[0-9a-f-]{36}$/.test(url.pathname));
    await checkPage(page, shots, 'email-detail');
    await tabTo(page, 'Retry delivery');
    await page.keyboard.press('Enter');
    await page.getByText('is queued again').waitFor();
    await checkPage(page, shots, 'email-retried');
  });

  it('Audit: filters, paging and export link', async () => {
    await page.goto(`${origin}/console/audit`);
    await checkPage(page, shots, 'audit-list');
    await page.getByLabel('Action').selectOption('email.*'); // the families and actions recorded, from a list
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.search.includes('action=email.*') || url.search.includes('action=email.%2A'));
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);
    await expect(page.locator('.local-time').count()).resolves.toBe(1); // the script adds the local time
    await page.getByLabel('From').fill('yesterday');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByLabel('From').getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage(page, shots, 'audit-refused');
    const href = await page.getByRole('link', { name: /Export CSV/ }).getAttribute('href');
    expect(href).toContain('/console/audit/export.csv?action=email.*');
  });
});
