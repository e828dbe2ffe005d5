import { execFileSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps, sendPatsRequest } from './support/access-apps.js';
import { Screenshots, launchBrowser } from './support/browser.js';
import { auditPage } from './support/page-audit.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const NEW_PASSWORD = 'seven blue herons over the lake';

/**
 * The process ACCESS-SPEC describes, end to end, as the people involved live it: a partner asks on
 * the web (Chromium), confirms by mail, a contact person approves, IT assigns a scope, the
 * technical contact reveals the credentials once and gets a token with them; every mail is read
 * from a real SMTP server, nobody copies a secret.
 */
describe('access request journey: from an anonymous request to a token', () => {
  const apps = new AccessApps();
  let browser: Browser;
  let page: Page;
  let publicUrl: string;
  let contact: OperatorFixture;
  let it_: OperatorFixture;
  let auditor: OperatorFixture;
  let requestId: string;
  let clientId: string;
  let secret: string;
  const shots = new Screenshots('access-request-journey');
  const responses: string[] = [];

  async function call(method: 'get' | 'post' | 'put', path: string, token: string, body?: unknown) {
    const response = await apps.call(method, path, token, body);
    responses.push(response.text ?? '');
    return response;
  }

  async function audited(name: string) {
    expect(await auditPage(page, shots, name)).toEqual([]);
  }

  beforeAll(async () => {
    await apps.start();
    publicUrl = apps.publicUrl;
    await apps.dataSource.query(`UPDATE tenants SET display_name = 'Acme Services' WHERE id = $1`, [
      apps.tenant.tenantId,
    ]);
    contact = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'carla');
    it_ = await apps.fixtures.operator(apps.tenant, ['ITDepartment'], 'ivan');
    auditor = await apps.fixtures.operator(apps.tenant, ['Auditor'], 'audrey');
    const section = { slug: 'getting-started', title: 'Getting started', body: '# Hi' };
    expect((await call('post', '/doc-sections', contact.token, section)).status).toBe(201);
    const api = await call('post', '/apis', it_.token, { identifier: 'api://orders', displayName: 'Orders' });
    const scope = { value: 'Orders.Read', description: 'Read' };
    expect((await call('post', `/apis/${api.body.id}/scopes`, it_.token, scope)).status).toBe(201);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await apps.stop();
  });

  it('a partner asks for an account and API access on the web; a mistake is shown beside its field', async () => {
    await page.goto(`${publicUrl}/request-access`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Request access');
    await audited('form');
    await page.getByLabel('Your name').fill('Pat Partner');
    await page.getByLabel('Your email address').fill('pat@partner');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.locator('#requester-email-error').textContent()).resolves.toContain('one email address');
    await expect(page.locator('#kind-error').textContent()).resolves.toContain('Choose a personal account');
    await expect(page.getByLabel('Your name').inputValue()).resolves.toBe('Pat Partner');
    await audited('form-errors');

    await sendPatsRequest(page);
    await expect(page.getByRole('status').textContent()).resolves.toContain('received');
    await audited('sent');
    const [row] = await apps.dataSource.query(`SELECT id, status FROM access_requests`);
    expect(row.status).toBe('unverified');
    requestId = row.id;
  });

  it('the requester confirms the address with the mailed link (a button, not the GET)', async () => {
    const mail = await apps.mailTo('pat@partner.example', /confirm your access request/);
    expect(mail.subject).toBe('Acme Services: confirm your access request');
    const link = apps.linkIn(mail, 'request-access/confirm');
    const prefetch = await fetch(link);
    expect(prefetch.status).toBe(200);
    expect(prefetch.headers.get('referrer-policy')).toBe('no-referrer');
    expect((await call('get', `/access-requests/${requestId}`, contact.token)).body.status).toBe('unverified');
    await page.goto(link);
    await audited('confirm');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Request confirmed' }).waitFor();
    await audited('confirmed');
    expect((await page.goto(link))?.status()).toBe(410);
    await audited('confirm-used');
  });

  it('every contact person hears of it; one approves with a documentation section', async () => {
    const notice = await apps.mailTo('carla@example.com', /access request from Pat Partner/);
    expect(notice.text).toContain('Partner Ltd');
    expect(notice.text).toContain(requestId);
    const queue = await call('get', '/access-requests?status=submitted', it_.token);
    expect(queue.body.items.map((r: Json) => r.id)).toEqual([requestId]);
    const approved = await call('post', `/access-requests/${requestId}/approve`, contact.token, {
      note: 'Welcome aboard.',
      sections: ['getting-started'],
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      sections: ['getting-started'],
      decidedByUserId: contact.user.id,
    });
    clientId = approved.body.clientId;
    const client = await call('get', `/clients/${clientId}`, contact.token);
    expect(client.body).toMatchObject({
      state: 'awaiting_scopes',
      displayName: 'Orders sync',
      contactEmail: 'ops@partner.example',
    });
    expect((await call('get', `/clients/${clientId}/secrets`, contact.token)).body).toEqual([]);
  });

  it('the requester, the new user and the IT department get their mails', async () => {
    const approval = await apps.mailTo('pat@partner.example', /was approved/);
    expect(approval.text).toContain('Welcome aboard.');
    expect(approval.text).toContain('pat@partner.example');
    expect(approval.text).toContain('A separate mail brings its one link');
    expect(approval.text).toContain('Questions: write to carla <carla@example.com>.');
    const invitation = await apps.mailTo('pat@partner.example', /invited to private documentation/);
    expect(invitation.text).toContain('has no password yet');
    // One link sets the password: the invitation's, no activation link beside it.
    expect(apps.sink.messages.filter((m) => /Set up your account/.test(m.subject))).toEqual([]);
    const it = await apps.mailTo('ivan@example.com', /client Orders sync awaits scopes/);
    expect(it.text).toContain(clientId);
  });

  it('IT assigns a scope and the credentials go out by themselves to the technical contact', async () => {
    const assigned = await call('put', `/clients/${clientId}/scopes`, it_.token, {
      scopes: ['api://orders/Orders.Read'],
    });
    expect(assigned.body).toEqual({ scopes: ['api://orders/Orders.Read'], state: 'active' });
    const notice = await apps.mailTo('pat@partner.example', /are on their way/);
    expect(notice.text).toContain('ops@partner.example');
    const handovers = await call('get', `/clients/${clientId}/handovers`, contact.token);
    expect(handovers.body).toMatchObject([
      { status: 'pending', recipientEmail: 'ops@partner.example', accessRequestId: requestId },
    ]);
    expect((await call('get', `/clients/${clientId}/secrets`, contact.token)).body).toEqual([]);
  });

  it('the technical contact reveals the credentials once, and the token endpoint accepts them', async () => {
    const mail = await apps.mailTo('ops@partner.example', /credentials for Orders sync/);
    const link = apps.linkIn(mail, 'handover');
    const prefetch = await fetch(link);
    expect(prefetch.status).toBe(200);
    expect((await call('get', `/clients/${clientId}/secrets`, contact.token)).body).toEqual([]);
    await page.goto(link);
    await expect(page.locator('main').textContent()).resolves.toContain('Orders sync');
    await audited('handover');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Reveal' }).click(),
    ]);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['cache-control']).toBe('no-store');
    expect(answer.headers()['referrer-policy']).toBe('no-referrer');
    secret = (await page.locator('#client-secret').textContent())!;
    expect(secret.length).toBeGreaterThanOrEqual(40);
    await expect(page.locator('main').textContent()).resolves.toContain('api://orders/.default');
    await expect(page.locator('pre').first().textContent()).resolves.toContain(`client_secret=${secret}`);
    await audited('revealed');

    // The token endpoint hears of the new secret through NOTIFY, a few milliseconds after the commit.
    const deadline = Date.now() + 2000;
    let token: Response;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      token = await fetch(`${publicUrl}/${apps.tenant.tenantId}/oauth2/v2.0/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: secret,
          scope: 'api://orders/.default',
        }),
      });
      if (token.status === 200 || Date.now() > deadline) break;
    }
    expect(token.status).toBe(200);
    expect(((await token.json()) as Json).token_type).toBe('Bearer');

    expect((await page.reload())?.status()).toBe(410); // the browser posts the form again
    expect((await page.goto(link))?.status()).toBe(410);
    await expect(page.locator('main').textContent()).resolves.toMatch(/revealed on .* and are not shown\s+again/);
    await audited('handover-used');
    const [handover] = (await call('get', `/clients/${clientId}/handovers`, contact.token)).body;
    expect(handover).toMatchObject({
      status: 'revealed',
      revealedFrom: expect.any(String),
      secretKeyId: expect.any(String),
    });
  });

  it('the request is fulfilled once the partner chose a password through the invitation link too', async () => {
    expect((await call('get', `/access-requests/${requestId}`, auditor.token)).body).toMatchObject({
      status: 'approved',
      credentialsDeliveredAt: expect.any(String),
      accountDeliveredAt: null,
    });
    const invitation = apps.linkIn(
      (await apps.sink.waitFor((m) => /invited to private documentation/.test(m.subject)))[0]!,
      'invitations',
    );
    await page.goto(invitation);
    await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await page.getByRole('button', { name: 'Accept' }).waitFor();
    const done = await call('get', `/access-requests/${requestId}`, auditor.token);
    expect(done.body).toMatchObject({
      status: 'fulfilled',
      fulfilledAt: expect.any(String),
      accountDeliveredAt: expect.any(String),
    });
  });

  it("reads the request's audit trail back in order", async () => {
    const trail = await call('get', `/audit-events?target=${requestId}`, auditor.token);
    const actions = (trail.body.items as Json[]).map((e) => e.action).reverse();
    expect(actions).toEqual([
      'access_request.created',
      'access_request.confirmed',
      'access_request.approved',
      'access_request.handover_sent',
      'access_request.delivered',
      'access_request.fulfilled',
    ]);
    const client = await call('get', `/audit-events?target=${clientId}&action=client.handover.*`, auditor.token);
    expect((client.body.items as Json[]).map((e) => e.action).reverse()).toEqual([
      'client.handover.created',
      'client.handover.revealed',
    ]);
    const revealed = (client.body.items as Json[])[0]!;
    expect(revealed.details).toMatchObject({
      sourceAddress: expect.any(String),
      revealedAt: expect.any(String),
      keyId: expect.any(String),
    });
  });

  it('every mail came through SMTP; the secret is in one answer only, in no mail, log, audit event or dump', async () => {
    await apps.deliver();
    expect(await apps.count(`SELECT count(*)::int AS n FROM emails WHERE status <> 'sent'`)).toBe(0);
    expect(apps.sink.messages.map((m) => `${m.envelopeTo[0]} ${m.subject}`).sort()).toEqual(
      [
        'carla@example.com Acme Services: access request from Pat Partner (Partner Ltd)',
        'ivan@example.com Acme Services: client Orders sync awaits scopes',
        'ops@partner.example Acme Services: credentials for Orders sync',
        'pat@partner.example Acme Services: confirm your access request',
        'pat@partner.example Acme Services: credentials for Orders sync are on their way',
        'pat@partner.example Acme Services: your access request was approved',
        'pat@partner.example You are invited to private documentation',
      ].sort(),
    );
    for (const mail of apps.sink.messages) expect(mail.raw).not.toContain(secret);
    expect(apps.logs.text).not.toContain(secret);
    expect(responses.join('\n')).not.toContain(secret);
    const dump = execFileSync('pg_dump', ['--data-only', apps.database.url], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(dump).toContain('Orders sync');
    expect(dump).not.toContain(secret);
  });
});
