import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, overviewFigure, signInInBrowser, startConsoleApp } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';

/**
 * The credential policy and a client's limits in Chromium: an Administrator sets the policy (a
 * lifetime beyond the product's maximum comes back beside its field, nothing lost), the Overview
 * counts the older credential it flags and opens the list, the client page flags it, a 400-day
 * secret is refused on the form with the rule; the IT department restricts where the client's
 * token requests may come from and sets a quota. axe-core and screenshots at 1280 and 390 px.
 */
describe('console: credential policy and client limits', () => {
  let app: ConsoleApp;
  let browser: Browser;
  let clientId: string;
  const shots = new Screenshots('console-credential-policy');

  beforeAll(async () => {
    app = await startConsoleApp({ slug: 'default', displayName: 'Acme Ltd' });
    const clients = app.admin.get(ClientService);
    clientId = (await clients.create(app.tenantId, SYSTEM_ACTOR, { displayName: 'Orders sync', contactEmail: 'ops@partner.example' })).clientId;
    await clients.issueSecret(app.tenantId, SYSTEM_ACTOR, clientId, { displayName: 'production', expiresInDays: 400 });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('an Administrator sets the policy; the older secret is counted, listed and flagged; a 400-day secret is refused on the form', async () => {
    const ada = await app.staff.staff(app.tenantId, ['Administrator'], { username: 'ada' });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, ada, await app.staff.secondFactor(ada));

    await page.getByRole('link', { name: 'Credential policy' }).click();
    await page.waitForURL((url) => url.pathname === '/console/credential-policy');
    await expect(page.getByText('No policy is set').count()).resolves.toBe(1);
    await checkPage(page, shots, 'policy');

    await page.getByLabel('Longest secret lifetime (days)').fill('800');
    await page.getByLabel('Federated credentials').uncheck();
    await page.getByRole('button', { name: 'Save the policy' }).click();
    await expect(page.locator('#maxSecretLifetimeDays-error, .field-error').first().textContent()).resolves.toMatch(/730/);
    await expect(page.getByLabel('Longest secret lifetime (days)').inputValue()).resolves.toBe('800');
    await expect(page.getByLabel('Federated credentials').isChecked()).resolves.toBe(false);
    await checkPage(page, shots, 'policy-refused');

    await page.getByLabel('Longest secret lifetime (days)').fill('180');
    await page.getByRole('button', { name: 'Save the policy' }).click();
    await page.waitForURL((url) => url.pathname === '/console/credential-policy');
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Credential policy saved');
    await expect(page.getByRole('link', { name: '1 credential is outside it' }).count()).resolves.toBe(1);

    await page.goto(`${app.origin}/console`);
    expect(await overviewFigure(page, 'Credentials outside the policy')).toBe('1');
    await page.locator('a.card', { hasText: 'Credentials outside the policy' }).click();
    await page.waitForURL((url) => url.pathname === '/console/clients/outside-policy');
    await expect(page.locator('td', { hasText: 'at most 180 days' }).count()).resolves.toBe(1);
    await checkPage(page, shots, 'outside-policy');

    await page.getByRole('link', { name: 'Orders sync' }).click();
    await page.waitForURL((url) => url.pathname === `/console/clients/${clientId}`);
    await expect(page.getByRole('heading', { name: /Credentials outside the credential policy/ }).count()).resolves.toBe(1);
    await checkPage(page, shots, 'client-flagged');

    await page.goto(`${app.origin}/console/clients/${clientId}/secrets/new`);
    await page.getByLabel('Description (optional)').fill('next year');
    await page.getByLabel('Expires after (days)').fill('400');
    await page.getByRole('button', { name: 'Create the secret' }).click();
    await expect(page.locator('.field-error').first().textContent()).resolves.toContain('at most 180 days');
    await expect(page.getByLabel('Description (optional)').inputValue()).resolves.toBe('next year');
    await checkPage(page, shots, 'secret-refused');
    const secrets = await app.admin.get(ClientService).listSecrets(app.tenantId, clientId);
    expect(secrets).toHaveLength(1);
  }, 120_000);

  it('the IT department limits where the client may ask from and how often; bad ranges come back beside the field', async () => {
    const ivan = await app.staff.staff(app.tenantId, ['ITDepartment'], { username: 'ivan' });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, ivan, await app.staff.secondFactor(ivan));
    await page.goto(`${app.origin}/console/clients/${clientId}`);
    await expect(page.getByRole('link', { name: 'Credential policy' }).count()).resolves.toBe(0);

    await page.getByLabel('Allowed source ranges (optional)').fill('203.0.113.0/24\n10.0.0.0/33');
    await page.getByLabel('Tokens per hour (optional)').fill('0');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await expect(page.locator('.field-error').allTextContents()).resolves.toEqual(expect.arrayContaining([expect.stringMatching(/Tokens per hour/)]));
    await expect(page.getByLabel('Allowed source ranges (optional)').inputValue()).resolves.toBe('203.0.113.0/24\n10.0.0.0/33');
    await page.getByLabel('Tokens per hour (optional)').fill('3600');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await expect(page.locator('.field-error').first().textContent()).resolves.toContain('10.0.0.0/33');
    await checkPage(page, shots, 'limits-refused');

    await page.getByLabel('Allowed source ranges (optional)').fill('203.0.113.0/24\n2001:db8::/32');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.waitForURL((url) => url.pathname === `/console/clients/${clientId}`);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Limits saved');
    const client = await app.admin.get(ClientService).get(app.tenantId, clientId);
    expect(client).toMatchObject({ allowedSourceRanges: ['203.0.113.0/24', '2001:db8::/32'], tokensPerHour: 3600 });
    await checkPage(page, shots, 'client-limits');
  }, 120_000);

  it('is the Administrators’ page alone; others see the limits read only', async () => {
    const carla = await app.staff.staff(app.tenantId, ['ContactPerson'], { username: 'carla' });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, carla, await app.staff.secondFactor(carla));
    expect((await page.goto(`${app.origin}/console/credential-policy`))?.status()).toBe(403);
    await page.goto(`${app.origin}/console/clients/${clientId}`);
    await expect(page.getByRole('button', { name: 'Save limits' }).count()).resolves.toBe(0);
    await expect(page.getByText('203.0.113.0/24').count()).resolves.toBe(1);
  }, 60_000);
});
