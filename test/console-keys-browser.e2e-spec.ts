import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SigningKeyService } from '@gatehouse/tokens';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, signInInBrowser, startConsoleApp } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';

/**
 * The Signing keys page in Chromium: an Administrator sees the keys, reads before confirming that
 * revoking stops every token the previous key signed, confirms with a fresh second factor asked
 * inline, and lands on the list with what happened. axe-core and screenshots at 1280 and 390 px.
 */
describe('console: signing keys and the emergency rollover', () => {
  let app: ConsoleApp;
  let browser: Browser;
  const shots = new Screenshots('console-keys');

  const keys = () => app.admin.get(SigningKeyService);
  const publishedKids = async () => (await keys().jwks(app.tenantId)).keys.map((key) => key.kid as string);

  beforeAll(async () => {
    app = await startConsoleApp({ slug: 'default', displayName: 'Acme Ltd' });
    await app.db.transaction((em) => keys().ensureActiveKey(em, app.tenantId, 'RS256'));
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('an Administrator rolls the key over with revoking, after a step-up; the previous key leaves the JWKS', async () => {
    const ada = await app.staff.staff(app.tenantId, ['Administrator'], { username: 'ada' });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, ada, await app.staff.secondFactor(ada));
    const [before] = await publishedKids();

    await page.getByRole('link', { name: 'Signing keys' }).click();
    await page.waitForURL((url) => url.pathname === '/console/keys');
    await expect(page.locator('td', { hasText: before! }).count()).resolves.toBe(1);
    await checkPage(page, shots, 'keys');

    await page.getByRole('link', { name: 'Roll over the key' }).click();
    await page.getByRole('heading', { name: 'Roll over the signing key?' }).waitFor();
    await expect(page.getByRole('note').textContent()).resolves.toMatch(/every token it signed stops verifying/);
    await expect(page.getByText(before!).count()).resolves.toBeGreaterThan(0);
    await checkPage(page, shots, 'rollover-confirmation');

    await app.db.query(`UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1`, [ada.id]);
    await page.getByLabel(/^Revoke it now/).check();
    await page.getByRole('button', { name: 'Roll over the signing key' }).click();
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    expect(await publishedKids()).toEqual([before]); // nothing happened before the second factor
    await checkPage(page, shots, 'rollover-step-up');
    await page.getByLabel('Authentication code').fill(await app.staff.secondFactor(ada));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();

    await page.waitForURL((url) => url.pathname === '/console/keys');
    const flash = (await page.getByRole('status').first().textContent()) ?? '';
    expect(flash).toContain("signs this tenant's tokens from now on");
    expect(flash).toContain(`The previous key ${before} is revoked`);
    const now = await publishedKids();
    expect(now).toHaveLength(1);
    expect(now).not.toContain(before);
    await expect(page.locator('tr', { hasText: before! }).getByText('revoked').count()).resolves.toBe(1);
    await checkPage(page, shots, 'keys-after-rollover');
  });

  it('without revoking, the previous key stays published; the page says until when', async () => {
    const ben = await app.staff.staff(app.tenantId, ['Administrator'], { username: 'ben' });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, ben, await app.staff.secondFactor(ben));
    const [before] = await publishedKids();
    await page.goto(`${app.origin}/console/keys/rollover`);
    await page.getByRole('button', { name: 'Roll over the signing key' }).click();
    await page.waitForURL((url) => url.pathname === '/console/keys');
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(`The previous key ${before} stays in the JWKS`);
    expect(await publishedKids()).toContain(before);
    await expect(page.locator('tr', { hasText: before! }).getByText(/^until /).count()).resolves.toBe(1);
  });

  it('is not there for anyone but Administrators: no entry in the navigation, 403 on a forced URL', async () => {
    const carla = await app.staff.staff(app.tenantId, ['ContactPerson', 'ITDepartment', 'Auditor'], { username: 'carla' });
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, carla, await app.staff.secondFactor(carla));
    await expect(page.getByRole('link', { name: 'Signing keys' }).count()).resolves.toBe(0);
    expect((await page.goto(`${app.origin}/console/keys`))?.status()).toBe(403);
    expect((await page.goto(`${app.origin}/console/keys/rollover`))?.status()).toBe(403);
    const agent = await app.staff.signIn(carla);
    const forced = await app.staff.post(agent, '/console', '/console/keys/rollover', { revokePrevious: 'yes' });
    expect(forced.status).toBe(403);
    expect(await publishedKids()).toHaveLength(2);
  });
});
