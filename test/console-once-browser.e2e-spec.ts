import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { DocService } from '@gatehouse/docs';
import { AccessRequestService } from '@gatehouse/requests';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type ConsoleFixtures, type StaffMember, StaffBrowsers, startConsoleApp } from './support/console.js';
import { checkPage } from './support/page-checks.js';

/**
 * Every submit acts once (CONSOLE.md, "Daily work"), in Chromium: a double click, a reload of the
 * result, Back and submit again, and two tabs each end with exactly one effect and a page that
 * says what happened — for a new secret, a decision on a request, a new client, a new user and a
 * documentation edit; every form carries its one-time token; a wrong number is refused before the
 * second factor is asked; a documentation edit sent after the session ended comes back after
 * signing in again.
 */
describe('console: every submit acts once', () => {
  let app: ConsoleApp;
  let origin: string;
  let browser: Browser;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let carla: StaffMember; // ContactPerson
  let dora: StaffMember; // ContactPerson, a colleague deciding at the same time
  let ada: StaffMember; // Administrator: every page
  let clientPath: string;
  const shots = new Screenshots('console-once');

  const count = async (sql: string, params: unknown[] = []) => ((await app.db.query(sql, params)) as { n: number }[])[0]!.n;
  const events = (action: string, target: string | null = null) =>
    count(`SELECT count(*)::int AS n FROM audit_events WHERE action = $1 AND ($2::text IS NULL OR target_id::text = $2)`, [action, target]);
  let browsers: StaffBrowsers;
  const open = (member: StaffMember) => browsers.open(member);
  const text = (page: Page) => page.locator('main').innerText();

  beforeAll(async () => {
    app = await startConsoleApp();
    ({ origin, staff, tenantId } = app);
    browser = await launchBrowser();
    browsers = new StaffBrowsers(browser, app);
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    dora = await staff.staff(tenantId, ['ContactPerson'], { username: 'dora' });
    ada = await staff.staff(tenantId, ['Administrator'], { username: 'ada' });
    const client = await app.admin.get(ClientService).create(tenantId, SYSTEM_ACTOR, { displayName: 'Orders sync' });
    clientPath = `/console/clients/${client.clientId}`;
    await app.admin.get(DocService).create(tenantId, SYSTEM_ACTOR, { slug: 'orders-api', title: 'Orders API', body: '# Orders' });
    for (const member of [carla, dora, ada]) await open(member);
  }, 120_000);

  afterAll(async () => {
    await browsers?.close();
    await browser?.close();
    await app?.close();
  });

  const secrets = (name: string) => count(`SELECT count(*)::int AS n FROM client_secrets WHERE display_name = $1 AND revoked_at IS NULL`, [name]);

  it('a new secret: a double click makes one, a reload does not show it again, Back and submit again and two tabs make none more', { timeout: 90_000 }, async () => {
    const { page, context } = await open(carla);
    await page.goto(`${origin}${clientPath}/secrets/new`);
    await page.getByLabel('Description (optional)').fill('ci pipeline');
    await page.getByRole('button', { name: 'Create the secret' }).dblclick();
    await page.getByRole('heading', { name: 'Copy the new secret now' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/console\/results\//);
    const secret = (await page.locator('#client-secret').innerText()).trim();
    expect(secret.length).toBeGreaterThan(20);
    expect(await text(page)).toContain('reloading it or coming back to it later shows only that it was shown');
    expect(await secrets('ci pipeline')).toBe(1);
    await checkPage(page, shots, 'secret-shown-once');

    await page.reload();
    await page.getByRole('heading', { name: 'Shown once already' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(await text(page)).toContain('cannot be shown again');
    expect(await secrets('ci pipeline')).toBe(1);
    await checkPage(page, shots, 'secret-reloaded');
    await page.goBack();
    await page.getByRole('heading', { name: 'New secret' }).waitFor();
    await page.getByLabel('Description (optional)').fill('ci pipeline');
    await page.getByRole('button', { name: 'Create the secret' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/secrets/new'));
    expect(await text(page)).toContain('Nothing was done again');
    expect(await secrets('ci pipeline')).toBe(1);
    await checkPage(page, shots, 'secret-sent-again');
    const other = await context.newPage();
    for (const tab of [page, other]) {
      await tab.goto(`${origin}${clientPath}/secrets/new`);
      await tab.getByLabel('Description (optional)').fill('two tabs');
    }
    await Promise.all([page, other].map((tab) => tab.getByRole('button', { name: 'Create the secret' }).click()));
    await Promise.all([page, other].map((tab) => tab.waitForURL((url) => !url.pathname.endsWith('/secrets/new'))));
    const pages = [await text(page), await text(other)];
    expect(pages.filter((t) => t.includes('Copy the new secret now') || t.includes('Client secret'))).toHaveLength(1);
    expect(pages.filter((t) => t.includes('Nothing was done again') || t.includes('Nothing was done twice'))).toHaveLength(1);
    expect(await secrets('two tabs')).toBe(1);
    await other.close();
  });

  it('the server acts once for two sendings of the same form copy, whatever the browser does', async () => {
    const { page } = await open(carla);
    await page.goto(`${origin}${clientPath}/secrets/new`);
    const fields = await page.evaluate<Record<string, string>>(
      `Object.fromEntries([...document.querySelectorAll('form[action$="/secrets"] input[type=hidden]')].map((i) => [i.name, i.value]))`,
    );
    const body = new URLSearchParams({ ...fields, displayName: 'raced', expiresInDays: '30' }).toString();
    const send = () =>
      page.request.post(`${origin}${clientPath}/secrets`, {
        data: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        maxRedirects: 0,
      });
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((a) => a.status())).toEqual([303, 303, 303]);
    expect(new Set(answers.map((a) => a.headers().location)).size).toBe(1);
    expect(await secrets('raced')).toBe(1);
    expect(await events('client.secret.created')).toBeGreaterThanOrEqual(1);
  });

  it('a decision: a double click approves once; a colleague deciding in another tab lands on the request saying who decided and when', { timeout: 90_000 }, async () => {
    const requests = app.admin.get(AccessRequestService);
    const file = (name: string, email: string) =>
      requests.file(tenantId, SYSTEM_ACTOR, {
        requesterName: name,
        requesterEmail: email,
        organisation: 'Partner Ltd',
        account: null,
        api: { systemName: `${name} sync`, technicalContactEmail: 'ops@partner.example', purpose: 'Reads orders.' },
      });
    const first = await file('Pat Partner', 'pat@partner.example');
    const { page } = await open(carla);
    await page.goto(`${origin}/console/requests/${first.id}`);
    await page.getByRole('button', { name: 'Approve' }).dblclick();
    await page.getByText('Approved the request of Pat Partner').first().waitFor();
    expect(await events('access_request.approved', first.id)).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM api_clients WHERE display_name = 'Pat Partner sync'`)).toBe(1);
    await page.reload();
    expect(await events('access_request.approved', first.id)).toBe(1);

    const second = await file('Quinn Partner', 'quinn@partner.example');
    const colleague = (await open(dora)).page;
    await page.goto(`${origin}/console/requests/${second.id}`);
    await colleague.goto(`${origin}/console/requests/${second.id}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved the request of Quinn Partner').first().waitFor();
    await colleague.getByLabel(/^Why/).fill('Not this time.');
    await colleague.getByRole('button', { name: 'Reject' }).click();
    await colleague.getByText(/Already approved by Carla Example/).waitFor();
    expect(await text(colleague)).toContain('Nothing was done again');
    expect(new URL(colleague.url()).pathname).toBe(`/console/requests/${second.id}`);
    expect(await events('access_request.approved', second.id)).toBe(1);
    expect(await events('access_request.rejected', second.id)).toBe(0);
    await checkPage(colleague, shots, 'request-decided-meanwhile');

    // Back to the page with the form, and Approve again: the same form, the same answer.
    const third = await file('Rory Partner', 'rory@partner.example');
    await page.goto(`${origin}/console/requests/${third.id}`);
    const tab = await page.context().newPage();
    await tab.goto(`${origin}/console/requests/${third.id}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved the request of Rory Partner').first().waitFor();
    await tab.getByRole('button', { name: 'Approve' }).click();
    await tab.waitForLoadState();
    expect(await text(tab)).toMatch(/Nothing was done again/);
    expect(await events('access_request.approved', third.id)).toBe(1);
    await checkPage(tab, shots, 'request-approved-twice');
  });

  /** A form sent by a double click, its result reloaded, then Back and the same form sent again: one effect. */
  async function once(
    page: Page,
    input: { form: string; fill: () => Promise<void>; submit: string; done: string; effects: () => Promise<number> },
  ) {
    await page.goto(`${origin}${input.form}`);
    await input.fill();
    await page.getByRole('button', { name: input.submit }).dblclick();
    await page.getByText(input.done).first().waitFor();
    expect(await input.effects()).toBe(1);
    await page.reload();
    expect(await input.effects()).toBe(1);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === input.form);
    await input.fill();
    await page.getByRole('button', { name: input.submit }).click();
    await page.getByText('Nothing was done again').first().waitFor();
    expect(await input.effects()).toBe(1);
    return page;
  }

  it('a new client, a new user and a documentation edit: one effect each, and the page says so', { timeout: 120_000 }, async () => {
    const { page } = await open(carla);
    await once(page, {
      form: '/console/clients/new',
      fill: () => page.getByLabel('Name', { exact: true }).fill('Billing export'),
      submit: 'Create the client',
      done: 'Billing export',
      effects: () => count(`SELECT count(*)::int AS n FROM api_clients WHERE display_name = 'Billing export'`),
    });
    await checkPage(page, shots, 'client-created-again');
    await once(page, {
      form: '/console/users/new',
      fill: async () => {
        await page.getByLabel('Name', { exact: true }).fill('Sam Partner');
        await page.getByLabel('Email address').fill('sam@partner.example');
        await page.getByLabel('Username').fill('sam');
      },
      submit: 'Create user',
      done: 'Sam Partner',
      effects: () => count(`SELECT count(*)::int AS n FROM users WHERE username = 'sam'`),
    });
    await once(page, {
      form: '/console/docs/orders-api',
      fill: () => page.getByLabel('Text (Markdown)').fill('# Orders\n\nEdited once.'),
      submit: 'Save changes',
      done: 'Section "Orders API" saved.',
      effects: () => events('doc_section.updated'),
    });
    await checkPage(page, shots, 'doc-saved-again');
  });

  it('every POST form of every page carries the CSRF token and a fresh one-time token', { timeout: 60_000 }, async () => {
    const { page } = await open(ada);
    const paths = [
      '/console',
      '/console/clients/new',
      clientPath,
      `${clientPath}/secrets/new`,
      '/console/users/new',
      '/console/docs/new',
      '/console/docs/orders-api',
      '/console/requests/new',
      '/console/apis/new',
      '/console/staff/invite',
      '/console/account',
      '/console/webhooks/new',
    ];
    const seen = new Set<string>();
    for (const path of paths) {
      await page.goto(`${origin}${path}`);
      const forms = await page.evaluate<{ action: string; csrf: string; once: string }[]>(
        `[...document.querySelectorAll('form[method=post]')].map((f) => ({
          action: f.getAttribute('action'),
          csrf: f.querySelector('input[name=_csrf]')?.value ?? '',
          once: f.querySelector('input[name=_once]')?.value ?? '',
        }))`,
      );
      expect(forms.length, path).toBeGreaterThan(0);
      for (const form of forms) {
        expect(form.csrf, `${path} → ${form.action}`).not.toBe('');
        expect(form.once, `${path} → ${form.action}`).toMatch(/^[A-Za-z0-9_-]{22}$/);
        expect(seen.has(form.once), 'each copy of a form has its own token').toBe(false);
        seen.add(form.once);
      }
    }
  });

  it('a secret with 0 days is refused before a second factor is asked', async () => {
    const { page } = await open(carla);
    await app.db.query(
      `UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1 AND kind = 'console'`,
      [carla.id],
    );
    await page.goto(`${origin}${clientPath}/secrets/new`);
    await page.getByLabel('Description (optional)').fill('zero days');
    await page.getByLabel(/Expires/).fill('0');
    await page.getByRole('button', { name: 'Create the secret' }).click();
    await expect(page.getByLabel(/Expires/).getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await text(page)).not.toContain('Confirm it is you');
    await page.getByLabel(/Expires/).fill('30');
    await page.getByRole('button', { name: 'Create the secret' }).click();
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    expect(await secrets('zero days')).toBe(0);
  });

  it('a documentation edit sent after the session ended comes back as typed after signing in again', { timeout: 90_000 }, async () => {
    const { page } = await open(carla);
    await page.goto(`${origin}/console/docs/orders-api`);
    const typed = '# Orders\n\nA long edit that took longer than the session.';
    await page.getByLabel('Text (Markdown)').fill(typed);
    await app.db.query(`UPDATE sessions SET last_seen_at = now() - interval '20 minutes' WHERE user_id = $1`, [carla.id]);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Signed out: what you typed is kept' }).waitFor();
    await checkPage(page, shots, 'signed-out-form-kept');
    await page.getByRole('link', { name: 'sign in again' }).click();
    await page.getByLabel('Username').fill(carla.username);
    await page.getByLabel('Password', { exact: true }).fill(carla.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Authentication code').fill(await staff.secondFactor(carla));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Continue where you left off' }).waitFor();
    await expect(page.getByLabel('Body').inputValue()).resolves.toBe(typed);
    await checkPage(page, shots, 'continue-where-you-left-off');
    await page.getByRole('button', { name: 'Send it now' }).click();
    await page.waitForURL((url) => !url.pathname.includes('/resume/'));
    const [{ body }] = (await app.db.query(`SELECT body FROM doc_sections WHERE slug = 'orders-api'`)) as { body: string }[];
    expect(body.replace(/\r\n/g, '\n')).toBe(typed);
  });
});
