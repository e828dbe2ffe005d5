import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { HandoverService } from '@gatehouse/handovers';
import { OrganisationService } from '@gatehouse/organisations';
import { AccessDecisionService } from '@gatehouse/provisioning';
import { AccessRequestService } from '@gatehouse/requests';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, signInInBrowser, startConsoleApp } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';

/** The Organisations pages in Chromium: axe-core and screenshots at 1280 and 390 px, create, offboard after a confirmation, restore. */
describe('console organisations in a browser (DESIGN §12)', () => {
  let app: ConsoleApp;
  let browser: Browser;
  let page: Page;
  let carla: StaffMember;
  let acmeId: string;
  let client: { clientId: string; displayName: string };
  const shots = new Screenshots('console-organisations');
  const flash = async () => (await page.getByRole('status').first().textContent())?.trim() ?? '';

  beforeAll(async () => {
    app = await startConsoleApp();
    carla = await app.staff.staff(app.tenantId, ['ContactPerson'], { username: 'carla' });
    const requests = app.admin.get(AccessRequestService);
    const filed = await requests.file(app.tenantId, SYSTEM_ACTOR, {
      requesterName: 'Pat Partner',
      requesterEmail: 'pat@acme.example',
      organisation: 'Acme Logistics',
      account: { documentation: 'The API guide', reason: 'I build the integration.' },
      api: { systemName: 'Acme order sync', technicalContactEmail: 'ops@acme.example', purpose: 'Reads orders.' },
    });
    const approved = await app.admin.get(AccessDecisionService).approve(app.tenantId, SYSTEM_ACTOR, filed.id, {});
    acmeId = approved.organisationId!;
    client = await app.admin.get(ClientService).get(app.tenantId, approved.clientId!);
    await app.admin.get(HandoverService).create(app.tenantId, SYSTEM_ACTOR, client.clientId, {});
    await app.admin.get(OrganisationService).create(app.tenantId, SYSTEM_ACTOR, { name: `Very${'long'.repeat(49)}` });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, carla, await app.staff.secondFactor(carla));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists organisations, refuses an empty name beside the field, creates one', async () => {
    await page.getByRole('link', { name: 'Organisations' }).click();
    await page.waitForURL((url) => url.pathname === '/console/organisations');
    await expect(page.getByRole('link', { name: 'Acme Logistics' }).count()).resolves.toBe(1);
    await checkPage(page, shots, 'organisations-list');
    await page.getByRole('link', { name: 'New organisation' }).click();
    await page.getByRole('button', { name: 'Create the organisation' }).click();
    await expect(page.getByLabel('Name').getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage(page, shots, 'organisations-new-refused');
    await page.getByLabel('Name').fill('acme LOGISTICS');
    await page.getByRole('button', { name: 'Create the organisation' }).click();
    await expect(page.getByText('already exists').count()).resolves.toBeGreaterThan(0);
    await page.getByLabel('Name').fill('Globex');
    await page.getByRole('button', { name: 'Create the organisation' }).click();
    await page.getByRole('heading', { name: 'Globex', level: 1 }).waitFor();
    expect(await flash()).toContain('Globex created');
    await checkPage(page, shots, 'organisation-empty');
    await page.goto(`${app.origin}/console/organisations?search=verylong`);
    await page.getByRole('link', { name: /^Verylong/ }).click();
    await checkPage(page, shots, 'organisation-long-name');
  }, 120_000);

  it('shows its people, clients, requests and handovers; Offboard asks once with counts, then Restore reverses it', async () => {
    await page.goto(`${app.origin}/console/organisations/${acmeId}`);
    for (const name of ['People (1)', 'Clients (1)', 'Access requests (1)', 'Handovers (1)']) {
      await expect(page.getByRole('heading', { name }).count(), name).resolves.toBe(1);
    }
    await checkPage(page, shots, 'organisation-page');
    await page.getByRole('link', { name: 'Offboard' }).click();
    await page.getByRole('heading', { name: 'Offboard Acme Logistics?' }).waitFor();
    const effects = await page.locator('ul.effects').textContent();
    expect(effects).toContain('1 person disabled');
    expect(effects).toContain('1 client disabled');
    expect(effects).toContain('1 pending handover revoked');
    await checkPage(page, shots, 'organisation-offboard-confirm');
    await page.getByRole('button', { name: 'Offboard Acme Logistics' }).click();
    await page.getByRole('heading', { name: 'Acme Logistics', level: 1 }).waitFor();
    expect(await flash()).toContain('Acme Logistics offboarded: 1 person and 1 client disabled, 0 invitations and 1 handover revoked');
    await expect(page.getByText('offboarded', { exact: true }).count()).resolves.toBeGreaterThan(0);
    await checkPage(page, shots, 'organisation-offboarded');
    expect((await app.db.query(`SELECT state FROM api_clients WHERE client_id = $1`, [client.clientId]))[0].state).toBe('disabled');
    await page.getByRole('button', { name: 'Restore' }).click();
    expect(await flash()).toContain('Acme Logistics restored');
    expect((await app.db.query(`SELECT state FROM api_clients WHERE client_id = $1`, [client.clientId]))[0].state).toBe('awaiting_scopes');
  }, 120_000);

  it('links the organisation from the person, client and request pages', async () => {
    await page.goto(`${app.origin}/console/organisations/${acmeId}`);
    await page.getByRole('link', { name: 'Pat Partner' }).first().click();
    await page.getByRole('link', { name: 'Acme Logistics' }).click();
    await page.getByRole('link', { name: 'Acme order sync' }).first().click();
    // The client page also links the request that made it, which names the organisation too.
    await page.locator(`a[href$="/organisations/${acmeId}"]`, { hasText: 'Acme Logistics' }).first().click();
    await page.waitForURL((url) => url.pathname === `/console/organisations/${acmeId}`);
  });
});
