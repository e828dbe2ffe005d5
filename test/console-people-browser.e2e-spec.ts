import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserService } from '@gatehouse/accounts';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { DocService } from '@gatehouse/docs';
import { InvitationService } from '@gatehouse/invitations';
import { AccessRequestService } from '@gatehouse/requests';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, signInInBrowser, startConsoleApp } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';

/** Tabs until the focused element's text matches, as a keyboard user would; fails after 80 steps. */
async function tabTo(page: Page, text: RegExp): Promise<void> {
  for (let i = 0; i < 80; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>('document.activeElement ? document.activeElement.textContent || document.activeElement.value || "" : ""');
    if (text.test(focused.trim())) return;
  }
  throw new Error(`no focusable element matching ${text}`);
}

/** Users and Access requests in Chromium: every page with axe-core at 1280 and 390 px, and a keyboard-only action. */
describe('console users and access requests in a browser', () => {
  let app: ConsoleApp;
  let browser: Browser;
  let page: Page;
  let carla: StaffMember;
  let userId: string;
  let invitationId: string;
  const shots = new Screenshots('console-people');

  beforeAll(async () => {
    app = await startConsoleApp();
    const { tenantId, staff, admin } = app;
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    const docs = admin.get(DocService);
    await docs.create(tenantId, SYSTEM_ACTOR, { slug: 'orders-api', title: 'Orders API', body: '# Orders' });
    await docs.create(tenantId, SYSTEM_ACTOR, { slug: 'billing', title: 'Billing', body: '# Billing' });
    const users = admin.get(UserService);
    for (const [username, name] of [['pat.partner', 'Pat Partner'], ['sam', 'Sam Locked'], ['lee', 'Lee Long-Name Example-Person']]) {
      await users.create(tenantId, SYSTEM_ACTOR, { username: username!, email: `${username}@a-rather-long-partner-domain.example`, displayName: name!, password: 'none' });
    }
    const [pat] = await app.db.query(`SELECT id FROM users WHERE username = 'pat.partner'`);
    userId = pat.id;
    await app.db.query(`UPDATE users SET failed_login_count = 5, locked_until = now() + interval '15 minutes', last_sign_in_at = now() - interval '2 days' WHERE id = $1`, [userId]);
    await docs.grant(app.db.manager, tenantId, userId, ['orders-api']);
    invitationId = (await admin.get(InvitationService).create(tenantId, SYSTEM_ACTOR, { userId, sections: ['billing'] })).id;
    const requests = admin.get(AccessRequestService);
    await requests.file(tenantId, SYSTEM_ACTOR, {
      requesterName: 'Rita Requester', requesterEmail: 'rita@partner.example', organisation: 'Partner Ltd',
      account: { documentation: 'The Orders API guide', reason: 'I build our integration.' },
      api: { systemName: 'Orders sync', technicalContactEmail: 'ops@partner.example', purpose: 'Reads new orders every five minutes.' },
    });
    await requests.file(tenantId, SYSTEM_ACTOR, {
      requesterName: 'Otto Other', requesterEmail: 'otto@partner.example', organisation: 'Other GmbH',
      account: { documentation: 'Billing', reason: 'Invoices.' },
    });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, carla, await staff.secondFactor(carla));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('Users: list, search, new user (with errors), the user page, every confirmation', async () => {
    await page.goto(`${app.origin}/console/users`);
    await checkPage(page, shots, 'users');
    await page.goto(`${app.origin}/console/users?q=pat&status=locked`);
    await expect(page.getByRole('link', { name: 'Pat Partner' }).count()).resolves.toBe(1);
    await checkPage(page, shots, 'users-search');
    await page.goto(`${app.origin}/console/users?q=nobody`);
    await checkPage(page, shots, 'users-empty');
    await page.goto(`${app.origin}/console/users/new`);
    await checkPage(page, shots, 'user-new');
    await page.getByLabel('Email address').fill('not-an-address');
    await page.getByLabel('Documentation').selectOption('invitation');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('Choose at least one section.').waitFor();
    await expect(page.getByLabel('Email address').inputValue()).resolves.toBe('not-an-address');
    await checkPage(page, shots, 'user-new-errors');
    await page.goto(`${app.origin}/console/users/${userId}`);
    await expect(page.getByText(/after 5 failed sign-in attempts/).count()).resolves.toBe(1);
    await checkPage(page, shots, 'user-detail');
    for (const [path, name] of [['disable', 'user-disable'], ['reset-password', 'user-reset'], ['sections/orders-api/close', 'user-close-section'], [`invitations/${invitationId}/revoke`, 'user-revoke-invitation']]) {
      await page.goto(`${app.origin}/console/users/${userId}/${path}`);
      await expect(page.getByText('Pat Partner').count()).resolves.toBeGreaterThan(0);
      await checkPage(page, shots, name!);
    }
    await page.goto(`${app.origin}/console/users/${userId}/reset-password`);
    await page.getByText('Or generate a one-time password').click();
    await page.getByRole('button', { name: 'Generate a one-time password' }).click();
    await page.getByRole('heading', { name: 'One-time password for Pat Partner' }).waitFor();
    await expect(page.getByRole('button', { name: 'Copy one-time password' }).count()).resolves.toBe(1);
    await checkPage(page, shots, 'user-password-once');
  });

  it('Access requests: queue, a request with its decision form, filing, a decided request with its trail', async () => {
    await page.goto(`${app.origin}/console/requests`);
    await checkPage(page, shots, 'requests');
    await page.getByRole('link', { name: 'Rita Requester' }).click();
    await checkPage(page, shots, 'request-detail');
    await page.getByRole('checkbox', { name: /Orders API/ }).check();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/Approved the request of Rita Requester/).waitFor();
    await checkPage(page, shots, 'request-approved');
    await page.goto(`${app.origin}/console/requests/new`);
    await checkPage(page, shots, 'request-new');
    await page.getByRole('button', { name: 'File the request' }).click();
    await page.getByText('Choose a personal account, API access for a system, or both.').first().waitFor();
    await checkPage(page, shots, 'request-new-errors');
    await page.goto(`${app.origin}/console/requests?status=all`);
    await checkPage(page, shots, 'requests-all');
  });

  it('keyboard only: reject a request with a note', async () => {
    await page.goto(`${app.origin}/console/requests`);
    await tabTo(page, /^Otto Other$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/requests\/[0-9a-f-]{36}$/);
    await tabTo(page, /^Approve$/); // past the approval form
    await page.keyboard.press('Tab');
    const label = await page.evaluate<string>('document.activeElement.id');
    expect(label).toBe('reject-note');
    const outline = await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
    await page.keyboard.type('Please ask through your account manager.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText(/Rejected the request of Otto Other/).waitFor();
    const [row] = await app.db.query(`SELECT status FROM access_requests WHERE requester_name = 'Otto Other'`);
    expect(row.status).toBe('rejected');
  });
});
