import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';
import { Screenshots, launchBrowser } from './support/browser.js';
import { NARROW, WIDE, checkPage, overflowing, scrollsSideways } from './support/page-checks.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** A 200-character name without a single space, as the public request form takes it. */
const LONG_NAME = `Orders${'x'.repeat(188)}-sync`;

/** Where the browser wrapped a line of a command: before `text[at]`; `indented` when that line starts right of its first line. */
interface SoftBreak {
  text: string;
  at: number;
  indented: boolean;
}

/**
 * Runs in the page: every soft line break of an element's text, found from where each character is
 * drawn. (The tests compile without the DOM's types, hence `any`.)
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
function softBreaksOf(element: any): SoftBreak[] {
  const doc = (globalThis as any).document;
  const text: string = element.textContent ?? '';
  const chars: Array<{ node: any; offset: number }> = [];
  const walker = doc.createTreeWalker(element, (globalThis as any).NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) chars.push({ node, offset: i });
  }
  const rect = (i: number) => {
    const range = doc.createRange();
    range.setStart(chars[i]!.node, chars[i]!.offset);
    range.setEnd(chars[i]!.node, chars[i]!.offset + 1);
    return range.getBoundingClientRect() as { top: number; left: number };
  };
  const breaks: SoftBreak[] = [];
  let lineStart = 0;
  for (let i = 1; i < text.length; i++) {
    if (text[i - 1] === '\n') lineStart = i;
    if (text[i] === '\n' || text[i - 1] === '\n') continue;
    if (rect(i).top > rect(i - 1).top + 2) breaks.push({ text, at: i, indented: rect(i).left > rect(lineStart).left + 2 });
  }
  return breaks;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The partner's reveal page in Chromium: copy buttons that copy whole values, and nothing wider than a phone. */
describe('handover reveal page', () => {
  const apps = new AccessApps();
  const shots = new Screenshots('handover-reveal-page');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let contact: OperatorFixture;
  let client: Json;

  beforeAll(async () => {
    await apps.start();
    contact = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'carla');
    await apps.dataSource.query(`UPDATE users SET display_name = 'Carla Contact' WHERE id = $1`, [contact.user.id]);
    const it_ = await apps.fixtures.operator(apps.tenant, ['ITDepartment']);
    const api = await apps.call('post', '/apis', it_.token, { identifier: 'api://orders', displayName: 'Orders' });
    await apps.call('post', `/apis/${api.body.id}/scopes`, it_.token, { value: 'Orders.Read' });
    client = (await apps.call('post', '/clients', contact.token, { displayName: LONG_NAME, contactEmail: 'ops@partner.example' })).body;
    await apps.call('put', `/clients/${client.clientId}/scopes`, it_.token, { scopes: ['api://orders/Orders.Read'] });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: WIDE });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: apps.publicUrl });
    page = await context.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await apps.stop();
  });

  async function sendLink(): Promise<string> {
    expect((await apps.call('post', `/clients/${client.clientId}/handovers`, contact.token, {})).status).toBe(201);
    const mail = await apps.mailTo('ops@partner.example', /credentials for/);
    expect(mail.text).toContain('ask Carla Contact <carla@example.com> for a new one');
    return apps.linkIn(mail, 'handover');
  }

  const clipboard = () => page.evaluate<string>('navigator.clipboard.readText()');

  it('names the sender, offers no "Log in" to a recipient without an account, and fits a phone with a 200-character name', async () => {
    await page.goto(await sendLink());
    await expect(page.locator('main').textContent()).resolves.toContain('Questions: Carla Contact (carla@example.com)');
    expect(await page.getByRole('link', { name: 'Log in' }).count()).toBe(0);
    await checkPage(page, shots, 'handover');
  });

  it('reveals once, with a copy button for every value that copies it whole, at 1280 and 390 px', async () => {
    await page.getByRole('button', { name: 'Reveal' }).click();
    await page.locator('#client-secret').waitFor();
    expect(await page.getByRole('link', { name: 'Log in' }).count()).toBe(0);
    const secret = (await page.locator('#client-secret').textContent())!;
    expect(secret).toMatch(/^gte_[A-Za-z0-9]{40,}$/);
    const labels = await page.locator('button.copy').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
    expect(labels).toEqual(['Copy client id', 'Copy client secret', 'Copy scope', 'Copy token endpoint', 'Copy token request', 'Copy MSAL code']);
    for (const width of [WIDE, NARROW]) {
      await page.setViewportSize(width);
      await page.getByRole('button', { name: 'Copy client secret' }).click();
      expect(await clipboard()).toBe(secret);
      await page.getByRole('button', { name: 'Copy token request' }).click();
      const command = await clipboard();
      expect(command).toBe(
        [
          `curl -s -X POST '${apps.publicUrl}/${apps.tenant.tenantId}/oauth2/v2.0/token' \\`,
          `  --data-urlencode 'grant_type=client_credentials' \\`,
          `  --data-urlencode 'client_id=${client.clientId}' \\`,
          `  --data-urlencode 'client_secret=${secret}' \\`,
          `  --data-urlencode 'scope=api://orders/.default'`,
        ].join('\n'),
      );
    }
    await page.getByRole('button', { name: 'Copy token request' }).waitFor(); // "Copied" turns back after 2 s
    await checkPage(page, shots, 'revealed');
  });

  it('at 390 px wraps the secret inside its box, and the command only at its joints with its wrapped lines indented', async () => {
    await page.setViewportSize(NARROW);
    expect(await scrollsSideways(page) ? await overflowing(page) : []).toEqual([]);
    const box = await page.locator('#client-secret').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(NARROW.width);
    const secret = (await page.locator('#client-secret').textContent())!;
    const breaks = await page.locator('pre.snippet code').first().evaluate(softBreaksOf);
    expect(breaks.length).toBeGreaterThan(3); // a phone does wrap the command
    const inSecret = (b: SoftBreak) => b.at > b.text.indexOf(secret) && b.at < b.text.indexOf(secret) + secret.length;
    const misplaced = breaks.filter((b) => !inSecret(b) && !/[/=,?& -]/.test(b.text[b.at - 1]!));
    expect(misplaced.map((b) => b.text.slice(b.at - 12, b.at + 12))).toEqual([]);
    expect(breaks.filter((b) => !b.indented).map((b) => b.text.slice(b.at - 12, b.at + 12))).toEqual([]);
    await page.setViewportSize(WIDE);
  });

  // UPDATE_DOCS_SCREENSHOTS=1: the pictures in docs/ are replaced by this run's (else every run would change them).
  it.runIf(process.env.UPDATE_DOCS_SCREENSHOTS)('keeps the final pictures of the reveal page in docs/', () => {
    const dir = join(import.meta.dirname, '..', 'test-artifacts', 'handover-reveal-page');
    for (const file of readdirSync(dir).filter((name) => name.includes('revealed'))) {
      copyFileSync(join(dir, file), join(import.meta.dirname, '..', 'docs', `handover-${file.replace(/^\d+-/, '')}`));
    }
  });
});
