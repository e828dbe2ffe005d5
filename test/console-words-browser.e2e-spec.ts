import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { AccessRequestService } from '@gatehouse/requests';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, signInInBrowser, startConsoleApp } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';

/**
 * The pages the daily-work words changed, in Chromium: sortable lists with search, the empty
 * prerequisites that link onwards, the client's link to its request and the sign-in page's reset
 * link — axe-core at zero serious or critical, nothing sideways at 390 px, screenshots at both widths.
 */
describe('console words and lists in a browser', () => {
  let app: ConsoleApp;
  let browser: Browser;
  let page: Page;
  let ada: StaffMember;
  let carla: StaffMember;
  const shots = new Screenshots('console-words');
  const ids: Record<string, string> = {};
  const long = 'Averyveryverylongunbrokenorganisationnamethatnobodyeverwrapsbyhand'.repeat(3);

  beforeAll(async () => {
    app = await startConsoleApp({ displayName: 'Acme Logistics' });
    const { tenantId, staff, admin } = app;
    ada = await staff.staff(tenantId, ['Administrator'], { username: 'ada' });
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    await staff.staff(tenantId, ['ITDepartment'], { username: 'ivan' });
    const requests = admin.get(AccessRequestService);
    ids.rita = (
      await requests.file(tenantId, SYSTEM_ACTOR, {
        requesterName: 'Rita Requester', requesterEmail: 'rita@partner.example', organisation: long,
        api: { systemName: 'Orders sync', technicalContactEmail: 'ops@partner.example', purpose: 'Reads new orders.' },
      })
    ).id;
    ids.otto = (
      await requests.file(tenantId, SYSTEM_ACTOR, {
        requesterName: 'Otto Other', requesterEmail: 'otto@other.example', organisation: 'Other GmbH',
        account: { documentation: 'Billing', reason: 'Invoices.' },
      })
    ).id;
    const clients = admin.get(ClientService);
    for (const name of ['Warehouse sync', 'Billing export', 'Audit mirror']) await clients.create(tenantId, SYSTEM_ACTOR, { displayName: name });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: WIDE })).newPage();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('the sign-in page offers "Forgot your password?"', async () => {
    await page.goto(`${app.origin}/console/login`);
    await expect(page.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).resolves.toBe('http://localhost:3000/password-reset');
    await checkPage(page, shots, 'sign-in');
    await signInInBrowser(page, `${app.origin}/console/login`, carla, await app.staff.secondFactor(carla));
  }, 90_000);

  it('access requests: search and sort by a column header, with aria-sort', async () => {
    await page.goto(`${app.origin}/console/requests?status=all`);
    await page.locator('thead').getByRole('link', { name: /^Organisation/ }).click(); // the column's header, not the sidebar's Organisations
    await expect(page.locator('th[aria-sort="ascending"]').textContent()).resolves.toContain('Organisation');
    await checkPage(page, shots, 'requests-sorted');
    await page.getByLabel('Search').fill('other');
    await page.getByRole('button', { name: 'Show' }).click();
    expect(page.url()).toContain('sort=organisation');
    await expect(page.getByRole('link', { name: 'Otto Other' }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'Rita Requester' }).count()).resolves.toBe(0);
    await checkPage(page, shots, 'requests-search');
  }, 90_000);

  it('an approval without documentation sections says so and links to create one', async () => {
    await page.goto(`${app.origin}/console/requests/${ids.otto}`);
    await expect(page.getByRole('link', { name: 'Create a documentation section' }).getAttribute('href')).resolves.toBe('/console/docs/new');
    await checkPage(page, shots, 'request-no-sections');
  }, 90_000);

  it('the client made by an approval links to its request; no scopes yet links to APIs & scopes', async () => {
    await page.goto(`${app.origin}/console/requests/${ids.rita}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.goto(`${app.origin}/console/clients?sort=name`);
    await checkPage(page, shots, 'clients-sorted');
    await page.getByRole('link', { name: 'Orders sync' }).click();
    await expect(page.locator('#origin-request').getAttribute('href')).resolves.toBe(`/console/requests/${ids.rita}`);
    await expect(page.getByRole('link', { name: 'APIs & scopes' }).last().getAttribute('href')).resolves.toBe('/console/apis');
    await checkPage(page, shots, 'client-origin');
  }, 90_000);

  it('users and staff sort by their columns; staff are searched', async () => {
    await page.goto(`${app.origin}/console/users`);
    await page.getByRole('link', { name: /^Username/ }).click();
    await page.getByRole('link', { name: /^Username/ }).click();
    await expect(page.locator('th[aria-sort="descending"]').textContent()).resolves.toContain('Username');
    await checkPage(page, shots, 'users-sorted');
    await page.context().clearCookies();
    await signInInBrowser(page, `${app.origin}/console/login`, ada, await app.staff.secondFactor(ada));
    await page.goto(`${app.origin}/console/staff`);
    await page.getByLabel('Search').fill('carla');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('link', { name: 'Carla Example' }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'Ivan Example' }).count()).resolves.toBe(0);
    await checkPage(page, shots, 'staff-search');
  }, 90_000);
});
