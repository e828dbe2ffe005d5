import type { INestApplication } from '@nestjs/common';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiService } from '@gatehouse/apis';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientCertificateService, ClientService } from '@gatehouse/clients';
import { HandoverService } from '@gatehouse/handovers';
import { Screenshots, launchBrowser } from './support/browser.js';
import { makeCertificate } from './support/client-certificates.js';
import {
  type ConsoleApp,
  type ConsoleFixtures,
  type StaffMember,
  signInInBrowser,
  startConsoleApp,
} from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';

/** Presses Tab until the focused element matches, as a keyboard user moves through a page. */
async function tabTo(page: Page, accessibleText: string, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>(
      `(() => { const e = document.activeElement; if (!e) return ''; const l = e.labels && e.labels[0]; return ((l ? l.textContent : '') + '|' + (e.textContent || '')).trim(); })()`,
    );
    if (focused.includes(accessibleText)) return;
  }
  throw new Error(`Tab never reached "${accessibleText}"`);
}

/** Clients and APIs & scopes in Chromium: every page with axe-core at 1280 and 390 px, and a keyboard-only journey. */
describe('console clients and APIs in a browser', () => {
  let app: ConsoleApp;
  let admin: INestApplication;
  let origin: string;
  let browser: Browser;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let carla: StaffMember;
  let ivan: StaffMember;
  const shots = new Screenshots('console-catalog');

  const open = async (member: StaffMember) => {
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${origin}/console/login`, member, await staff.secondFactor(member));
    return page;
  };

  beforeAll(async () => {
    app = await startConsoleApp();
    ({ admin, origin, staff, tenantId } = app);
    browser = await launchBrowser();
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    ivan = await staff.staff(tenantId, ['ITDepartment'], { username: 'ivan' });
    const apis = admin.get(ApiService);
    const orders = await apis.create(tenantId, SYSTEM_ACTOR, { identifier: 'api://orders', displayName: 'Orders API' });
    await apis.addScope(tenantId, SYSTEM_ACTOR, orders.id, {
      value: 'Orders.Read',
      description: 'Read orders and their lines',
    });
    await apis.addScope(tenantId, SYSTEM_ACTOR, orders.id, {
      value: 'Orders.Write',
      description: 'Create and change orders',
    });
    const billing = await apis.create(tenantId, SYSTEM_ACTOR, {
      identifier: 'https://billing.example.com/api',
      displayName: 'Billing API',
      accessTokenVersion: 1,
    });
    await apis.addScope(tenantId, SYSTEM_ACTOR, billing.id, { value: 'Invoices.Read' });
    const clients = admin.get(ClientService);
    const sync = await clients.create(tenantId, SYSTEM_ACTOR, {
      displayName: 'Orders sync',
      contactEmail: 'ops@partner.example',
    });
    await clients.setScopes(tenantId, SYSTEM_ACTOR, sync.clientId, ['api://orders/Orders.Read']);
    await clients.issueSecret(tenantId, SYSTEM_ACTOR, sync.clientId, { displayName: 'production', expiresInDays: 20 });
    await clients.issueSecret(tenantId, SYSTEM_ACTOR, sync.clientId, { displayName: 'staging' });
    await admin
      .get(ClientCertificateService)
      .add(tenantId, SYSTEM_ACTOR, sync.clientId, { certificate: makeCertificate().pem, displayName: 'daemon 2027' });
    await admin.get(HandoverService).create(tenantId, SYSTEM_ACTOR, sync.clientId, {});
    await clients.create(tenantId, SYSTEM_ACTOR, {
      displayName: 'Warehouse feed with a rather long name for narrow screens',
      contactEmail: 'warehouse-operations-team@logistics-partner.example',
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('a contact person: the list, a client, each credential page and confirmation', async () => {
    const page = await open(carla);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Clients' }).click();
    await page.waitForURL((url) => url.pathname === '/console/clients');
    await expect(page.getByRole('button', { name: /^Copy client id of Orders sync/ }).count()).resolves.toBe(1);
    await checkPage(page, shots, 'clients-list');
    await page.goto(`${origin}/console/clients?q=nothing&state=disabled`);
    await checkPage(page, shots, 'clients-list-empty');
    await page.goto(`${origin}/console/clients`);
    await page.getByRole('link', { name: 'Orders sync' }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders sync' }).waitFor();
    await checkPage(page, shots, 'client-detail');
    const detail = page.url();
    for (const [link, name] of [
      ['Send credentials', 'client-send-credentials'],
      ['New secret', 'client-new-secret'],
      ['Add certificate', 'client-add-certificate'],
      [/^Revoke secret/, 'client-revoke-secret'],
      [/^Remove certificate/, 'client-remove-certificate'],
      [/^Revoke handover/, 'client-revoke-handover'],
      ['Disable…', 'client-disable'],
    ] as const) {
      await page.goto(detail);
      await page.getByRole('link', { name: link }).first().click();
      await page.waitForURL((url) => url.href !== detail);
      await checkPage(page, shots, name);
    }
    await page.goto(`${detail}/certificates/new`);
    await page
      .getByLabel('Certificate (PEM)')
      .fill('-----BEGIN CERTIFICATE-----\nnot really\n-----END CERTIFICATE-----');
    await page.getByRole('button', { name: 'Add the certificate' }).click();
    await expect(page.getByLabel('Certificate (PEM)').getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage(page, shots, 'client-add-certificate-refused');
    await page.goto(`${detail}/secrets/new`);
    await page.getByLabel('Description (optional)').fill('ci pipeline');
    await page.getByRole('button', { name: 'Create the secret' }).click();
    await page.getByRole('heading', { name: 'Copy the new secret now' }).waitFor();
    await expect(page.getByRole('button', { name: 'Copy client secret' }).count()).resolves.toBe(1);
    await checkPage(page, shots, 'client-secret-once');
  }, 90_000); // CPU-bound (password hashing, or a browser), and slower while other test files share the two cores

  it('the IT department: scopes on the client page, the APIs list, an API and the new-API form', async () => {
    const page = await open(ivan);
    await page.goto(`${origin}/console/clients?state=awaiting_scopes`);
    await checkPage(page, shots, 'clients-awaiting-scopes');
    await page.getByRole('link', { name: /^Warehouse feed/ }).click();
    await page.getByRole('group', { name: 'Orders API (api://orders)' }).waitFor();
    await checkPage(page, shots, 'client-detail-it');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'APIs & scopes' }).click();
    await checkPage(page, shots, 'apis-list');
    await page.getByRole('link', { name: 'Orders API' }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders API' }).waitFor();
    await checkPage(page, shots, 'api-detail');
    await page.getByLabel('Scope', { exact: true }).fill('Orders Read');
    await page.getByRole('button', { name: 'Add the scope' }).click();
    await expect(page.getByLabel('Scope', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage(page, shots, 'api-detail-refused');
    await page.goto(`${origin}/console/apis/new`);
    await checkPage(page, shots, 'api-new');
  });

  it('keyboard only: IT grants a scope to a waiting client, and a contact person creates a client', async () => {
    const page = await open(ivan);
    await page.goto(`${origin}/console/clients?state=awaiting_scopes`);
    await tabTo(page, 'Warehouse feed');
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: 'Orders API (api://orders)' }).waitFor();
    await tabTo(page, 'Orders.Write');
    const outline = await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
    await page.keyboard.press('Space');
    await tabTo(page, 'Save scopes');
    await page.keyboard.press('Enter');
    await page.getByText(/may now request: api:\/\/orders\/Orders.Write. It is active: send its credentials/).waitFor();
    await checkPage(page, shots, 'client-scopes-saved');
    const db = admin.get(DataSource);
    await expect(db.query(`SELECT state FROM api_clients WHERE display_name LIKE 'Warehouse feed%'`)).resolves.toEqual([
      { state: 'active' },
    ]);

    const contact = await open(carla);
    await contact.goto(`${origin}/console/clients`);
    await tabTo(contact, 'New client');
    await contact.keyboard.press('Enter');
    await contact.getByRole('heading', { level: 1, name: 'New client' }).waitFor();
    await checkPage(contact, shots, 'client-new');
    await tabTo(contact, 'Name');
    await contact.keyboard.type('Keyboard sync');
    await contact.keyboard.press('Tab');
    await contact.keyboard.type('keys@partner.example');
    await contact.keyboard.press('Enter');
    await contact.getByRole('heading', { level: 1, name: 'Keyboard sync' }).waitFor();
    await expect(contact.getByRole('status').first().textContent()).resolves.toContain('Client Keyboard sync created.');
  });
});
