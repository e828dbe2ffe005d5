import type { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiService } from '@gatehouse/apis';
import type { Actor } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, signInInBrowser, startConsoleApp } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';

const LONG = `Sync${'x'.repeat(196)}`; // 200 characters, unbroken

/**
 * The Credentials page and the client page's last use in Chromium: an IT person finds the idle
 * secret, opens its client, sees last use beside each credential and scope, and removes the unused
 * scope after one confirmation. axe-core, 1280 and 390 px.
 */
describe('console: credentials and last use in a browser', () => {
  let app: ConsoleApp;
  let browser: Browser;
  let ivan: StaffMember;
  let cora: StaffMember;
  let clientId: string;
  let forgottenKey: string;
  const shots = new Screenshots('console-credentials');

  beforeAll(async () => {
    app = await startConsoleApp({ slug: 'default', displayName: 'Acme Ltd' });
    ivan = await app.staff.staff(app.tenantId, ['ITDepartment'], { username: 'ivan' });
    const actor: Actor = { type: 'user', userId: ivan.id, clientId: null, permissions: ['Apis.Manage', 'Scopes.Assign', 'Clients.Read', 'Secrets.Manage'] };
    const apis = app.admin.get(ApiService);
    const api = await apis.create(app.tenantId, actor, { identifier: 'api://stock', displayName: 'Stock' });
    for (const value of ['Stock.Read', 'Stock.Write']) await apis.addScope(app.tenantId, actor, api.id, { value });
    const clients = app.admin.get(ClientService);
    const db = app.admin.get(DataSource);
    for (const displayName of ['Warehouse sync', LONG]) {
      const client = await clients.create(app.tenantId, actor, { displayName });
      await clients.setScopes(app.tenantId, actor, client.clientId, ['api://stock/Stock.Read', 'api://stock/Stock.Write']);
      const used = await clients.issueSecret(app.tenantId, actor, client.clientId, { displayName: 'production' });
      const forgotten = await clients.issueSecret(app.tenantId, actor, client.clientId, { displayName: 'forgotten' });
      if (displayName === 'Warehouse sync') forgottenKey = forgotten.keyId;
      await db.query(
        `UPDATE client_secrets SET last_used_at = date_trunc('minute', now() - interval '2 hours'), last_used_from = '203.0.113.7' WHERE key_id = $1`,
        [used.keyId],
      );
      await db.query(
        `UPDATE client_scope_grants g SET created_at = now() - interval '120 days',
                last_used_at = CASE WHEN s.value = 'Stock.Read' THEN date_trunc('minute', now() - interval '2 hours') END
           FROM api_scopes s WHERE s.id = g.scope_id AND g.api_client_id = $1`,
        [client.objectId],
      );
      if (displayName === 'Warehouse sync') clientId = client.clientId;
    }
    cora = await app.staff.staff(app.tenantId, ['ContactPerson'], { username: 'cora' });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('finds never-used secrets on Credentials, opens the client and removes its unused scope after confirming', { timeout: 120_000 }, async () => {
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, ivan, await app.staff.secondFactor(ivan));
    await page.getByRole('link', { name: 'Credentials' }).click();
    await page.waitForURL((url) => url.pathname === '/console/credentials');
    await expect(page.locator('tbody tr').count()).resolves.toBe(4);
    await expect(page.locator('tbody').textContent()).resolves.toContain('203.0.113.7');
    await checkPage(page, shots, 'credentials');

    await page.getByLabel('Show').selectOption('never-used');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL((url) => url.searchParams.get('show') === 'never-used');
    await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    await expect(page.locator('tbody').textContent()).resolves.not.toContain('203.0.113.7');
    await checkPage(page, shots, 'credentials-never-used');

    await page.getByLabel('Show').selectOption('unused');
    await page.getByLabel('Unused for (days)').fill('0');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('type a whole number from 1').waitFor();

    await page.goto(`${app.origin}/console/clients/${clientId}`);
    const secrets = page.getByRole('table', { name: 'Secrets' });
    await expect(secrets.textContent()).resolves.toMatch(/2 hours ago[\s\S]*from 203\.0\.113\.7/);
    await expect(secrets.textContent()).resolves.toContain('never');
    await expect(page.locator('#unused-scopes').textContent()).resolves.toContain('api://stock/Stock.Write');
    await expect(page.locator('section[aria-labelledby="scopes-heading"]').textContent()).resolves.toMatch(/Stock\.Read[\s\S]*last used 2 hours ago/);
    await checkPage(page, shots, 'client-last-use');

    await page.getByRole('link', { name: 'Remove unused scopes' }).click();
    await page.getByRole('heading', { name: 'Remove unused scopes?' }).waitFor();
    await checkPage(page, shots, 'remove-unused-confirm');
    await page.getByRole('button', { name: 'Remove the unused scope' }).click();
    await page.getByText('Removed the unused scope: api://stock/Stock.Write.').waitFor();
    await expect(page.locator('#unused-scopes').count()).resolves.toBe(0);
    await checkPage(page, shots, 'client-after-removal');
  });

  it('a secret disabled as stale is found on Credentials and enabled again from its client page after confirming', { timeout: 120_000 }, async () => {
    // As the stale-credential job leaves it with the tenant's disableStaleCredentials on.
    await app.db.query(`UPDATE client_secrets SET disabled_at = now() - interval '1 day', stale_reported_at = now() - interval '1 day' WHERE key_id = $1`, [forgottenKey]);
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, cora, await app.staff.secondFactor(cora));
    // Outside the policy: nothing before the tenant has one; with 30-day secrets, all four 180-day secrets.
    await page.goto(`${app.origin}/console/credentials?show=outside-policy`);
    await page.getByText('No live credential is outside the credential policy.').waitFor();
    await app.db.query(
      `INSERT INTO credential_policies (tenant_id, max_secret_lifetime_days, allowed_credential_kinds, effective_from)
       VALUES ($1, 30, '{secret,certificate,federated}', now())`,
      [app.tenantId],
    );
    await page.reload();
    await expect(page.locator('tbody tr').count()).resolves.toBe(4);
    await page.goto(`${app.origin}/console/credentials?show=disabled`);
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);
    await expect(page.locator('tbody').textContent()).resolves.toMatch(/disabled\s*as stale on \d{4}-\d{2}-\d{2}/);
    await checkPage(page, shots, 'credentials-disabled');

    await page.locator('tbody a', { hasText: 'Warehouse sync' }).click();
    await page.waitForURL((url) => url.pathname === `/console/clients/${clientId}`);
    const secrets = page.getByRole('table', { name: 'Secrets' });
    await expect(secrets.textContent()).resolves.toMatch(/disabled\s*as stale on/);
    await checkPage(page, shots, 'client-disabled-secret');
    await secrets.getByRole('link', { name: /^Enable again secret/ }).click();
    await page.getByRole('heading', { name: 'Enable the credential again?' }).waitFor();
    await checkPage(page, shots, 'enable-again-confirm');
    await page.getByRole('button', { name: 'Enable again' }).click();
    await page.getByText('Credential enabled again').waitFor();
    await expect(page.getByRole('table', { name: 'Secrets' }).textContent()).resolves.not.toContain('as stale on');
    const [row] = await app.db.query(`SELECT disabled_at, enabled_at FROM client_secrets WHERE key_id = $1`, [forgottenKey]);
    expect(row).toMatchObject({ disabled_at: null, enabled_at: expect.any(Date) });
    const events = await app.db.query(`SELECT actor_id FROM audit_events WHERE action = 'client.credential.enabled' AND details->>'keyId' = $1`, [forgottenKey]);
    expect(events).toEqual([{ actor_id: cora.id }]);
  });
});
