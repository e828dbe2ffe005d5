import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, signInInBrowser, startConsoleApp } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';

/** Passkeys as an additional second factor, in Chromium with a virtual authenticator (DevTools protocol). */
describe('console passkeys', () => {
  let app: ConsoleApp;
  let browser: Browser;
  let member: StaffMember;
  const shots = new Screenshots('console-passkeys');

  async function withAuthenticator(): Promise<Page> {
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return page;
  }

  const failures = async () =>
    ((await app.db.query(`SELECT failed_second_factor_count AS n FROM users WHERE id = $1`, [member.id]))[0] as { n: number }).n; // counted apart from passwords

  beforeAll(async () => {
    app = await startConsoleApp({ host: 'localhost' });
    browser = await launchBrowser();
    member = await app.staff.staff(app.tenantId, ['ContactPerson'], { username: 'paz' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('adds a passkey in My account, signs in with it instead of a code, refuses a forged one, removes it with step-up', async () => {
    const page = await withAuthenticator();
    await signInInBrowser(page, `${app.origin}/console/login`, member, await app.staff.secondFactor(member));
    await page.getByRole('link', { name: 'My account' }).click();
    await page.getByLabel('Name of a new passkey').fill('Test key');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey "Test key" added').waitFor();
    await expect(page.getByRole('cell', { name: 'Test key', exact: true }).count()).resolves.toBe(1);
    await checkPage(page, shots, 'my-account-with-passkey');
    const [stored] = await app.db.query(`SELECT credential_id, sign_count FROM passkeys WHERE user_id = $1`, [member.id]);
    expect(stored.credential_id).toMatch(/^[A-Za-z0-9_-]+$/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Username').fill(member.username);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Use a passkey instead' }).waitFor();
    await checkPage(page, shots, 'code-with-passkey');
    const csrf = (await page.locator('#passkey-sign-in input[name="_csrf"]').getAttribute('value'))!;
    const forged = await page.request.post(`${app.origin}/console/login/passkey`, {
      form: { _csrf: csrf, returnTo: '/console', credential: JSON.stringify({ id: stored.credential_id, type: 'public-key', response: {} }) },
      headers: { Origin: app.origin },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(401);
    expect(await failures()).toBe(1);
    let captured = '';
    await page.route('**/console/login/passkey', async (route) => {
      captured = new URLSearchParams(route.request().postData() ?? '').get('credential') ?? '';
      await route.continue();
    });
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await page.waitForURL((url) => url.pathname === '/console');
    expect(await failures()).toBe(0);
    expect(JSON.parse(captured)).toMatchObject({ id: stored.credential_id, type: 'public-key' });

    // The same signed answer again, in a new sign-in that asked for a new challenge: refused.
    const replay = await browser.newContext();
    const other = await replay.newPage();
    await other.goto(`${app.origin}/console/login`);
    await other.getByLabel('Username').fill(member.username);
    await other.getByLabel('Password', { exact: true }).fill(member.password);
    await other.getByRole('button', { name: 'Continue' }).click();
    await other.waitForURL((url) => url.pathname === '/console/login/code');
    const otherCsrf = (await other.locator('#passkey-sign-in input[name="_csrf"]').getAttribute('value'))!;
    const options = await other.request.post(`${app.origin}/console/login/passkey/options`, { form: { _csrf: otherCsrf }, headers: { Origin: app.origin } });
    expect(options.status()).toBe(200);
    const replayed = await other.request.post(`${app.origin}/console/login/passkey`, {
      form: { _csrf: otherCsrf, returnTo: '/console', credential: captured },
      headers: { Origin: app.origin },
      maxRedirects: 0,
    });
    expect(replayed.status()).toBe(401);
    await replay.close();
    await app.db.query(`UPDATE users SET failed_second_factor_count = 0, second_factor_locked_until = NULL WHERE id = $1`, [member.id]);
    const [used] = await app.db.query(`SELECT details FROM audit_events WHERE action = 'user.mfa.succeeded' AND target_id = $1 ORDER BY occurred_at DESC LIMIT 1`, [member.id]);
    expect(used.details).toMatchObject({ method: 'passkey', passkey: 'Test key' });

    await app.db.query(`UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1`, [member.id]);
    await page.goto(`${app.origin}/console/account`);
    await page.getByRole('button', { name: 'Remove Test key' }).click();
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    await page.getByLabel('Authentication code').fill(await app.staff.secondFactor(member));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.getByText('Passkey "Test key" removed').waitFor();
    expect(await app.db.query(`SELECT id FROM passkeys WHERE user_id = $1`, [member.id])).toEqual([]);
  });

  it('adding a passkey with a second factor older than five minutes asks for a code inline, then keeps the passkey as named (SECURITY 57)', async () => {
    const ria = await app.staff.staff(app.tenantId, ['Auditor'], { username: 'ria' });
    const page = await withAuthenticator();
    await signInInBrowser(page, `${app.origin}/console/login`, ria, await app.staff.secondFactor(ria));
    await app.db.query(`UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1`, [ria.id]);
    await page.goto(`${app.origin}/console/account`);
    await page.getByLabel('Name of a new passkey').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    expect(await app.db.query(`SELECT id FROM passkeys WHERE user_id = $1`, [ria.id])).toEqual([]);
    await checkPage(page, shots, 'passkey-step-up');
    await page.getByLabel('Authentication code').fill(await app.staff.secondFactor(ria));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.getByText('Passkey "Laptop" added').waitFor();
    expect(await app.db.query(`SELECT name FROM passkeys WHERE user_id = $1`, [ria.id])).toEqual([{ name: 'Laptop' }]);
  });
});
