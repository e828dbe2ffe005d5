import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaffAccessService } from '@gatehouse/provisioning';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, csrfOf, signInInBrowser, startConsoleApp } from './support/console.js';
import { checkPage } from './support/page-checks.js';
import { SmtpSink } from './support/smtp-sink.js';

const NEW_PASSWORD = 'nine lanterns in the orchard';
const shots = new Screenshots('console-staff-invitations');

/**
 * Staff who were invited and never set up their access: "invited" (or "invitation expired") on
 * Staff and Users, never "active"; their invitation resent (new link, old one dead) or revoked; no
 * second factor to reset before one exists; the used link's page leads to sign-in; the sign-in
 * through the link counts as their last sign-in.
 */
describe('console: staff invitations', () => {
  const sink = new SmtpSink();
  let app: ConsoleApp;
  let ada: StaffMember;
  let browser: Browser;
  let page: Page;

  const invite = async (email: string, role: 'ContactPerson' | 'Auditor') => {
    const tenant = await app.admin.get(StaffAccessService).tenant(app.tenantId);
    const actor = { type: 'user' as const, userId: ada.id, clientId: null, permissions: ['Tenant.Manage'] };
    return app.admin.get(StaffAccessService).invite(tenant, actor, { email, role, displayName: email.split('@')[0]! }, 'mail');
  };
  const linkTo = async (address: string, nth: number) => {
    await app.admin.get(OutboxDeliveryService).deliverDue();
    const mails = await sink.waitFor((m) => m.envelopeTo.includes(address), nth + 1);
    return new RegExp(`${app.origin}(/console/activate/[A-Za-z0-9_-]+)`).exec(mails[nth]!.text)![1]!;
  };
  const statusOn = async (path: string, name: string) =>
    (await page.goto(`${app.origin}${path}`), (await page.locator('tr', { hasText: name }).locator('.badge').allTextContents()));

  beforeAll(async () => {
    await sink.start();
    app = await startConsoleApp({ config: { smtpUrl: sink.url } });
    ada = await app.staff.staff(app.tenantId, ['Administrator'], { username: 'ada' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, ada, await app.staff.secondFactor(ada));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await sink.stop();
  });

  it('shows someone invited as "invited" on Staff and Users, and offers no second factor to reset', async () => {
    await invite('nina@acme.example', 'ContactPerson');
    expect(await statusOn('/console/staff', 'nina@acme.example')).toEqual(['Contact person', 'not set up yet', 'invited']);
    await checkPage(page, shots, 'staff-list');
    expect(await statusOn('/console/users', 'nina@acme.example')).toEqual(['invited', 'Contact person']);
    await checkPage(page, shots, 'users-list');
    await page.getByRole('link', { name: 'nina', exact: true }).click();
    await expect(page.locator('main').textContent()).resolves.toContain('Has not set a password yet; the link mailed to them works until');
    await checkPage(page, shots, 'user-invited');
    await page.goto(`${app.origin}/console/staff`);
    await page.getByRole('link', { name: 'nina', exact: true }).click();
    await expect(page.locator('#invitation-heading + p').textContent()).resolves.toMatch(/has not set up their access yet.*stops working in 3 days/s);
    expect(await page.getByRole('link', { name: 'Reset second factor…' }).count()).toBe(0);
    await checkPage(page, shots, 'staff-invited');
    await page.goto(`${app.origin}/console/staff/${ada.id}`);
    expect(await page.getByRole('link', { name: 'Reset second factor…' }).count()).toBe(1);
  });

  it('resends the invitation: a new link, the old one dead with a page that leads to sign-in', async () => {
    const old = await linkTo('nina@acme.example', 0);
    await page.goto(`${app.origin}/console/staff`);
    await page.getByRole('link', { name: 'nina', exact: true }).click();
    await page.getByRole('button', { name: 'Resend invitation' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('A new invitation went to nina@acme.example');
    const fresh = await linkTo('nina@acme.example', 1);
    expect(fresh).not.toBe(old);
    const dead = await page.goto(`${app.origin}${old}`);
    expect(dead!.status()).toBe(410);
    const text = (await page.locator('main').textContent())!;
    expect(text).not.toContain('`');
    expect(await page.getByRole('link', { name: 'sign in' }).getAttribute('href')).toBe('/console/login');
    await checkPage(page, shots, 'activation-used');
    const [event] = await app.db.query(`SELECT actor_id FROM audit_events WHERE action = 'user.staff_invitation_resent'`);
    expect(event.actor_id).toBe(ada.id);
  });

  it('an expired invitation says so; signing in through the link counts as the last sign-in', async () => {
    await app.db.query(`UPDATE account_links SET expires_at = now() - interval '1 minute' WHERE used_at IS NULL`);
    expect(await statusOn('/console/staff', 'nina@acme.example')).toContain('invitation expired');
    await page.goto(`${app.origin}/console/staff`);
    await page.getByRole('link', { name: 'nina', exact: true }).click();
    await page.getByRole('button', { name: 'Resend invitation' }).click();
    // The same resend was sent from this session minutes ago: the console asks before doing it again.
    await page.getByRole('button', { name: 'Do it again' }).click();
    const link = await linkTo('nina@acme.example', 2);
    const nina = request.agent(app.admin.getHttpServer());
    const form = await nina.get(link).expect(200);
    await nina.post(link).set('Origin', app.origin).type('form').send({ _csrf: csrfOf(form.text), newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }).expect(303);
    expect(await statusOn('/console/staff', 'nina@acme.example')).toContain('active');
    await page.goto(`${app.origin}/console/users`);
    await expect(page.locator('tr', { hasText: 'nina@acme.example' }).textContent()).resolves.not.toContain('never');
    const [id] = await app.db.query(`SELECT id FROM users WHERE email = 'nina@acme.example'`);
    await page.goto(`${app.origin}/console/staff/${id.id}`);
    expect(await page.getByRole('button', { name: 'Resend invitation' }).count()).toBe(0);
  });

  it('revokes an invitation: the link dies and the role goes, after a confirmation that names both', async () => {
    const omar = await invite('omar@acme.example', 'Auditor');
    const link = await linkTo('omar@acme.example', 0);
    await page.goto(`${app.origin}/console/staff/${omar.userId}`);
    await page.getByRole('link', { name: 'Revoke invitation…' }).click();
    await expect(page.locator('main').textContent()).resolves.toMatch(/no longer holds\s+Auditor/);
    await checkPage(page, shots, 'staff-revoke');
    await page.getByRole('button', { name: 'Revoke the invitation' }).click();
    await page.waitForURL((url) => url.pathname === '/console/staff');
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('was revoked');
    expect(await page.locator('tr', { hasText: 'omar@acme.example' }).count()).toBe(0);
    expect((await request(app.admin.getHttpServer()).get(link)).status).toBe(410);
    const [row] = await app.db.query(`SELECT roles FROM users WHERE id = $1`, [omar.userId]);
    expect(row.roles).toEqual([]);
    const events = await app.db.query(`SELECT action FROM audit_events WHERE target_id = $1 ORDER BY occurred_at`, [omar.userId]);
    expect(events.map((e: { action: string }) => e.action)).toEqual(['user.created', 'user.staff_invited', 'user.updated', 'user.staff_invitation_revoked']);
  });

  it('only an Administrator resends or revokes, and not for someone who has set up their access', async () => {
    const carla = await app.staff.staff(app.tenantId, ['ContactPerson'], { username: 'carla' });
    const agent = await app.staff.signIn(carla);
    const form = await agent.get('/console');
    const forced = await agent.post(`/console/staff/${ada.id}/invitation/resend`).set('Origin', app.origin).type('form').send({ _csrf: csrfOf(form.text) });
    expect(forced.status).toBe(403);
    const admin = await app.staff.signIn(ada);
    const staffPage = await admin.get('/console/staff');
    const refused = await admin.post(`/console/staff/${carla.id}/invitation/revoke`).set('Origin', app.origin).type('form').send({ _csrf: csrfOf(staffPage.text) });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('has set up their console access already');
  });
});
