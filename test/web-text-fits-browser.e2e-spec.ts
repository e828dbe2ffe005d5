import type { INestApplication } from '@nestjs/common';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { DocService } from '@gatehouse/docs';
import { Screenshots, launchBrowser } from './support/browser.js';
import { NARROW, WIDE, expectAccessible, overflowing } from './support/page-checks.js';
import { WebClient, logInInBrowser, startListeningWebApp } from './support/web-client.js';

const long = (start: string) => (start + 'x'.repeat(200)).slice(0, 200);

/**
 * Any text fits in the Web UI too (one stylesheet for both UIs): a partner with a 200-character
 * name reading a section whose title, headings, words and links run 200 characters without a
 * space, and the public request form sent back with 200-character values, are no wider than the
 * screen at 390 and 1280 px; axe-core finds nothing serious or critical; every form carries its
 * one-time token.
 */
describe('web UI: any text fits', () => {
  let app: INestApplication;
  let close: () => Promise<void>;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const shots = new Screenshots('web-text-fits');
  const wider: string[] = [];

  beforeAll(async () => {
    let tenantId: string;
    ({ app, origin, tenantId, close } = await startListeningWebApp());
    const web = new WebClient(app, origin, tenantId);
    const partner = await web.user('pat');
    const db = app.get(DataSource);
    await db.query(`UPDATE users SET display_name = $2 WHERE id = $1`, [partner.id, long('Pat')]);
    const docs = app.get(DocService);
    await docs.create(tenantId, SYSTEM_ACTOR, {
      slug: 'orders-api',
      title: long('Title'),
      body: `# ${long('Heading')}\n\n${long('Paragraph')}\n\n[${long('Link')}](https://example.com/${'p'.repeat(180)})\n\n\`${long('code')}\``,
    });
    await db.transaction((em) => docs.grant(em, tenantId, partner.id, ['orders-api']));
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: WIDE });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    await logInInBrowser(page, `${origin}/login`, 'pat');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await close?.();
  });

  async function fits(name: string) {
    for (const [size, label] of [
      [WIDE, '1280'],
      [NARROW, '390'],
    ] as const) {
      await page.setViewportSize(size);
      const { scroll, viewport } = await page.evaluate<{ scroll: number; viewport: number }>(
        `({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth })`,
      );
      if (scroll > viewport) wider.push(`${name} at ${label} px: ${scroll} > ${viewport}: ${(await overflowing(page)).join(', ')}`);
      await expectAccessible(page, `${name} at ${label} px`);
      await shots.take(page, `${name}-${label}`);
    }
    await page.setViewportSize(WIDE);
    const tokens = await page.evaluate<string[]>(
      `[...document.querySelectorAll('form[method=post]')].map((f) => f.querySelector('input[name=_once]')?.value ?? '')`,
    );
    for (const token of tokens) expect(token, `${name}: a form without its one-time token`).toMatch(/^[A-Za-z0-9_-]{22}$/);
  }

  it('the documentation, a section and the request form sent back with long values', { timeout: 180_000 }, async () => {
    await page.goto(`${origin}/docs`);
    await fits('docs');
    await page.goto(`${origin}/docs/orders-api`);
    await fits('doc-section');
    await page.goto(`${origin}/password`);
    await fits('password');
    const visitor = await (await browser.newContext({ viewport: WIDE })).newPage();
    await visitor.goto(`${origin}/request-access`);
    await visitor.getByLabel('Your name').fill(long('Requester'));
    await visitor.getByLabel('Your email address').fill(`${'m'.repeat(150)}@`);
    await visitor.getByLabel('Organisation').fill(long('Organisation'));
    await visitor.getByLabel('I need API access for a system').check();
    await visitor.getByLabel('Name of the system').fill(long('System'));
    await visitor.getByRole('button', { name: 'Send request' }).click();
    await visitor.locator('[aria-invalid=true]').first().waitFor();
    page = visitor;
    await fits('request-form-refused');
    expect(wider).toEqual([]);
  });
});
