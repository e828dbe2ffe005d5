import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiService } from '@gatehouse/apis';
import type { Actor } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, signInInBrowser, startConsoleApp } from './support/console.js';
import { NARROW, WIDE, checkPage, overflowing, scrollsSideways } from './support/page-checks.js';

const LONG = `Sync${'x'.repeat(196)}`; // 200 characters, unbroken
/** What makes the page wider than the screen (nothing, we hope). */
const sticksOut = async (page: Page) => ((await scrollsSideways(page)) ? overflowing(page) : []);

/**
 * The Audit page in Chromium as an auditor uses it: the target filter takes a client's name, the
 * action comes from the list, a date preset narrows it, and an event opens with its old and new
 * values — names before ids, nothing wider than the screen. axe-core, 1280 and 390 px.
 */
describe('console: audit in a browser', () => {
  let app: ConsoleApp;
  let browser: Browser;
  let audra: StaffMember;
  const shots = new Screenshots('console-audit');

  beforeAll(async () => {
    app = await startConsoleApp({ slug: 'default', displayName: 'Acme Ltd' });
    audra = await app.staff.staff(app.tenantId, ['Auditor'], { username: 'audra' });
    const ivan = await app.staff.staff(app.tenantId, ['ITDepartment'], { username: 'ivan' });
    const actor: Actor = { type: 'user', userId: ivan.id, clientId: null, permissions: ['Apis.Manage', 'Scopes.Assign', 'Clients.Read'] };
    const apis = app.admin.get(ApiService);
    const api = await apis.create(app.tenantId, actor, { identifier: 'api://stock', displayName: 'Stock' });
    for (const value of ['Stock.Read', 'Stock.Write']) await apis.addScope(app.tenantId, actor, api.id, { value });
    const clients = app.admin.get(ClientService);
    for (const displayName of ['Warehouse sync', LONG]) {
      const { clientId } = await clients.create(app.tenantId, actor, { displayName });
      await clients.setScopes(app.tenantId, actor, clientId, ['api://stock/Stock.Read']);
      await clients.setScopes(app.tenantId, actor, clientId, ['api://stock/Stock.Read', 'api://stock/Stock.Write']);
    }
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("filters by a client's name and an action from the list, and opens an event with what changed", async () => {
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, audra, await app.staff.secondFactor(audra));
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.waitForURL((url) => url.pathname === '/console/audit');
    await checkPage(page, shots, 'audit');

    await page.getByLabel('Target').fill('Warehouse sync');
    await page.getByLabel('Action').selectOption('client.scopes.set');
    await page.getByLabel('Period').selectOption({ label: 'Last hour' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('target') === 'Warehouse sync');
    const rows = page.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.first().getByRole('cell').nth(1).textContent()).resolves.toContain('Ivan Example');
    await expect(rows.first().getByRole('cell').nth(3).textContent()).resolves.toMatch(/Warehouse sync\s+client\s+[0-9a-f-]{36}/);
    await checkPage(page, shots, 'audit-filtered');

    await rows.first().locator('time').click();
    await page.getByRole('heading', { name: 'What changed' }).waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('client.scopes.set');
    const added = page.getByRole('heading', { name: 'Added' }).locator('xpath=following-sibling::ul[1]');
    await expect(added.textContent()).resolves.toBe('api://stock/Stock.Write');
    await expect(page.getByRole('heading', { name: 'Removed' }).count()).resolves.toBe(0);
    await checkPage(page, shots, 'audit-event');
  });

  it('a 200-character unbroken name fits the list and the event page at 390 px', async () => {
    const page = await (await browser.newContext({ viewport: NARROW })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, audra, await app.staff.secondFactor(audra));
    await page.goto(`${app.origin}/console/audit?target=${LONG}&action=client.scopes.set`);
    await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    expect(await sticksOut(page)).toEqual([]);
    await page.locator('tbody tr').first().locator('time').click();
    await page.getByRole('heading', { name: 'What changed' }).waitFor();
    expect(await sticksOut(page)).toEqual([]);
    await checkPage(page, shots, 'audit-event-long-name');
  });
});
