import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserService } from '@gatehouse/accounts';
import { ApiService } from '@gatehouse/apis';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { DocService } from '@gatehouse/docs';
import { AccessRequestService } from '@gatehouse/requests';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, signInInBrowser, startConsoleApp } from './support/console.js';
import { NARROW, WIDE, expectAccessible, overflowing } from './support/page-checks.js';

/** 200 characters without a space: what the public form and the API accept as a name. */
const long = (start: string) => (start + 'x'.repeat(200)).slice(0, 200);
const LONG_EMAIL = `${'m'.repeat(64)}@${'d'.repeat(60)}.${'e'.repeat(60)}.example`;

/**
 * Any text fits (CONSOLE.md, "Daily work"): with a 200-character unbroken value in every text
 * field a page shows — names, emails, URLs, identifiers, titles — no console page is wider than
 * the screen at 390 or 1280 px (`document.documentElement.scrollWidth` ≤ the viewport), and
 * axe-core finds nothing serious or critical.
 */
describe('console: any text fits', () => {
  let app: ConsoleApp;
  let origin: string;
  let browser: Browser;
  let ada: StaffMember;
  let page: Page;
  const shots = new Screenshots('console-text-fits');
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startConsoleApp({ displayName: long('Tenant') });
    origin = app.origin;
    const { admin, staff, tenantId, db } = app;
    ada = await staff.staff(tenantId, ['Administrator'], { username: 'ada' });
    await db.query(`UPDATE users SET display_name = $2 WHERE id = $1`, [ada.id, long('Ada')]);
    const apis = admin.get(ApiService);
    const api = await apis.create(tenantId, SYSTEM_ACTOR, {
      identifier: `api://${'i'.repeat(190)}`,
      displayName: long('OrdersApi'),
    });
    ids.api = api.id;
    await apis.addScope(tenantId, SYSTEM_ACTOR, api.id, { value: long('Scope').slice(0, 100), description: long('Reads') });
    const clients = admin.get(ClientService);
    const client = await clients.create(tenantId, SYSTEM_ACTOR, { displayName: long('Warehouse'), contactEmail: LONG_EMAIL });
    ids.client = client.clientId;
    await clients.issueSecret(tenantId, SYSTEM_ACTOR, client.clientId, { displayName: long('Secret') });
    const requests = admin.get(AccessRequestService);
    const request = await requests.file(tenantId, SYSTEM_ACTOR, {
      requesterName: long('Requester'),
      requesterEmail: LONG_EMAIL,
      organisation: long('Organisation'),
      account: { documentation: long('Documentation'), reason: long('Reason') },
      api: { systemName: long('System'), technicalContactEmail: LONG_EMAIL, purpose: long('Purpose') },
    });
    ids.request = request.id;
    const user = await admin.get(UserService).create(tenantId, SYSTEM_ACTOR, {
      username: `u${'s'.repeat(60)}`,
      email: LONG_EMAIL,
      displayName: long('Person'),
      password: 'none',
    });
    ids.user = user.id;
    const doc = await admin.get(DocService).create(tenantId, SYSTEM_ACTOR, {
      slug: `d${'o'.repeat(60)}`,
      title: long('Title'),
      body: `# ${long('Heading')}\n\n${long('Paragraph')}\n\n[${long('Link')}](https://example.com/${'p'.repeat(180)})`,
    });
    ids.doc = doc.slug;
    await db.query(
      `INSERT INTO emails (id, tenant_id, to_address, subject, text_body, html_body, template, status, attempts, last_error, created_at)
       VALUES (gen_random_uuid(), $1, $2, $3, '\\x00', '\\x00', 'invitation', 'abandoned', 8, $4, now())`,
      [tenantId, LONG_EMAIL, long('Subject'), long('550Error')],
    );
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: WIDE });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    await signInInBrowser(page, `${origin}/console/login`, ada, await staff.secondFactor(ada));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const widths = () =>
    page.evaluate<{ scroll: number; viewport: number }>(
      `({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth })`,
    );

  /** Every page that is wider than the screen, with what sticks out (all of them, not only the first). */
  const wider: string[] = [];

  async function fits(path: string, name: string) {
    await page.goto(`${origin}${path}`);
    for (const [size, label] of [
      [WIDE, '1280'],
      [NARROW, '390'],
    ] as const) {
      await page.setViewportSize(size);
      const { scroll, viewport } = await widths();
      if (scroll > viewport) wider.push(`${path} at ${label} px: ${scroll} > ${viewport}: ${(await overflowing(page)).join(', ')}`);
      await expectAccessible(page, `${name} at ${label} px`);
      await shots.take(page, `${name}-${label}`);
    }
    await page.setViewportSize(WIDE);
  }

  it('lists: requests, clients, users, APIs, documentation, email, audit, staff, the Overview', { timeout: 180_000 }, async () => {
    for (const [path, name] of [
      ['/console', 'overview'],
      ['/console/requests?status=all', 'requests'],
      ['/console/clients', 'clients'],
      ['/console/users', 'users'],
      ['/console/apis', 'apis'],
      ['/console/docs', 'docs'],
      ['/console/email', 'email'],
      ['/console/audit', 'audit'],
      ['/console/staff', 'staff'],
    ] as const) {
      await fits(path, name);
    }
    expect(wider.splice(0)).toEqual([]);
  });

  it('detail pages: a request, a client, a user, an API, a documentation section, an audit event', { timeout: 180_000 }, async () => {
    for (const [path, name] of [
      [`/console/requests/${ids.request}`, 'request'],
      [`/console/clients/${ids.client}`, 'client'],
      [`/console/clients/${ids.client}/secrets/new`, 'client-new-secret'],
      [`/console/users/${ids.user}`, 'user'],
      [`/console/apis/${ids.api}`, 'api'],
      [`/console/docs/${ids.doc}`, 'doc'],
      ['/console/account', 'account'],
    ] as const) {
      await fits(path, name);
    }
    await page.goto(`${origin}/console/audit`);
    const event = await page.locator('main table a').first().getAttribute('href');
    if (event) await fits(event, 'audit-event');
    expect(wider.splice(0)).toEqual([]);
  });
});
