import { join } from 'node:path';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessApps, sendPatsRequest } from './support/access-apps.js';
import { Screenshots, launchBrowser } from './support/browser.js';
import { ConsoleFixtures, type StaffMember, overviewFigure, sidebarCount, signInInBrowser } from './support/console.js';
import { NARROW, WIDE, checkPage } from './support/page-checks.js';

const PARTNER_PASSWORD = 'seven blue herons over the lake';
/** Audit rows as comparable lines, in a fixed order. */
const sorted = (rows: string[][]) => rows.map((row) => row.join(' | ')).sort();
/** The pictures of docs/operators.md are written here; docs/console-request.png and docs/console-client-390.png are copies. */
const README_SHOTS = join(import.meta.dirname, '..', 'test-artifacts', 'console-journey');

/**
 * ACCESS-SPEC's process as the people live it, every one of them in Chromium: a partner asks on the
 * identity app and confirms by mail, a contact person approves in the console, the IT department
 * ticks a scope, the technical contact reveals the credentials and gets a token with openid-client, the
 * partner reads the documentation, and an Auditor finds every step with the person who did it.
 */
describe('console journey: a request decided, equipped and handed over in the console', () => {
  const apps = new AccessApps();
  const shots = new Screenshots('console-journey');
  let browser: Browser;
  let staff: ConsoleFixtures;
  let consoleUrl: string;
  let publicUrl: string;
  let [carla, ivan, audrey]: StaffMember[] = [];
  let [requestId, clientId, secret] = ['', '', ''];

  /** A fresh browser (no cookies) for each person, wide. */
  async function person(): Promise<Page> {
    return (await browser.newContext({ viewport: WIDE })).newPage();
  }

  async function signIn(member: StaffMember): Promise<Page> {
    const page = await person();
    await signInInBrowser(page, `${consoleUrl}/login`, member, await staff.secondFactor(member));
    return page;
  }

  /**
   * The Audit page filtered by a target as an Auditor types it: actor, action and source address of
   * each row (sorted: the rows of one transaction share their time), and the CSV export of the same filter.
   */
  async function filteredByTarget(page: Page, target: string, name: string): Promise<{ rows: string[]; csv: string }> {
    await page.getByLabel('Target').fill(target);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('target') === target);
    await checkPage(page, shots, name);
    const rows = await page
      .locator('main table tbody tr')
      .evaluateAll((trs) =>
        trs
          // The names as the rows show them; the ids beside them (monospace) left out.
          .map((tr) =>
            [...tr.querySelectorAll('td')].map((cell) => {
              const id = cell.querySelector('code.id')?.textContent ?? '';
              const text = cell.textContent!.trim();
              return (id && text.endsWith(id) ? text.slice(0, -id.length) : text).trim();
            }),
          )
          .map((c) => [c[1]!, c[2]!, c[4]!]),
      );
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    const answer = await page.request.get(new URL(href!, page.url()).toString());
    expect(answer.headers()['content-type']).toContain('text/csv');
    return { rows: sorted(rows), csv: await answer.text() };
  }

  beforeAll(async () => {
    await apps.start({}, { listenAdmin: true });
    publicUrl = apps.publicUrl;
    consoleUrl = `${apps.adminUrl!}/console`;
    staff = new ConsoleFixtures(apps.admin, apps.adminUrl!);
    const tenantId = apps.tenant.tenantId;
    await apps.dataSource.query(`UPDATE tenants SET display_name = 'Acme Services' WHERE id = $1`, [tenantId]);
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    ivan = await staff.staff(tenantId, ['ITDepartment'], { username: 'ivan' });
    audrey = await staff.staff(tenantId, ['Auditor'], { username: 'audrey' });
    // What the tenant already has: a documentation section and an API with a scope (set up through REST).
    const writer = await apps.fixtures.operator(apps.tenant, ['ContactPerson', 'ITDepartment'], 'setup');
    const section = {
      slug: 'getting-started',
      title: 'Getting started',
      body: '# Welcome\n\nFirst steps with the Orders API.',
    };
    expect((await apps.call('post', '/doc-sections', writer.token, section)).status).toBe(201);
    const api = await apps.call('post', '/apis', writer.token, { identifier: 'api://orders', displayName: 'Orders' });
    expect(
      (
        await apps.call('post', `/apis/${api.body.id}/scopes`, writer.token, {
          value: 'Orders.Read',
          description: 'Read orders',
        })
      ).status,
    ).toBe(201);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await apps.stop();
  });

  it('a partner asks for an account and API access, and confirms from the mailed link', async () => {
    const page = await person();
    await page.goto(`${publicUrl}/request-access`);
    await checkPage(page, shots, 'request-form');
    await page.getByLabel('Your name').fill('Pat Partner');
    await sendPatsRequest(page);
    await checkPage(page, shots, 'request-sent');
    [{ id: requestId }] = await apps.dataSource.query(`SELECT id FROM access_requests`);

    await page.goto(
      apps.linkIn(await apps.mailTo('pat@partner.example', /confirm your access request/), 'request-access/confirm'),
    );
    await checkPage(page, shots, 'request-confirm');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Request confirmed' }).waitFor();
    await checkPage(page, shots, 'request-confirmed');
    await page.context().close();
  });

  it('the contact person sees the request waiting, opens it and approves it with a section', async () => {
    await apps.mailTo('carla@example.com', /access request from Pat Partner/);
    const page = await signIn(carla);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    expect(await sidebarCount(page, 'Access requests')).toMatch(/^1\b/);
    expect(await overviewFigure(page, 'Access requests to decide')).toBe('1');
    await checkPage(page, shots, 'contact-overview');
    await page.locator('a.card', { hasText: 'Access requests to decide' }).click();
    await page.waitForURL((url) => url.pathname === '/console/requests');
    await checkPage(page, shots, 'contact-queue');
    await page.getByRole('link', { name: 'Pat Partner' }).click();
    await page.waitForURL((url) => url.pathname === `/console/requests/${requestId}`);
    await expect(page.locator('main').textContent()).resolves.toContain('Orders sync');
    await checkPage(page, shots, 'contact-request');
    await page.screenshot({ path: join(README_SHOTS, 'readme-request.png') });
    await page.getByLabel('Getting started').check();
    await page.getByLabel('Note to the requester (optional)').fill('Welcome aboard.');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('status').first().waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toMatch(/approved/i);
    await checkPage(page, shots, 'contact-approved');
    // The two summaries (what was asked, what it produced) line up their values.
    const valueEdges = await page
      .locator('dl.summary dd:first-of-type')
      .evaluateAll((dds) => dds.map((dd) => Math.round(dd.getBoundingClientRect().left)));
    expect(new Set(valueEdges).size, `value columns at ${valueEdges.join(', ')} px`).toBe(1);
    const trail = page.getByRole('region', { name: 'What it produced' });
    const clientLink = trail.getByRole('link', { name: /^Orders sync \(/ });
    clientId = (await clientLink.getAttribute('href'))!.split('/').pop()!;
    await expect(trail.textContent()).resolves.toMatch(/Orders sync \([0-9a-f-]{36}\)\s*awaiting scopes/);
    const [client] = await apps.dataSource.query(
      `SELECT display_name AS name, state FROM api_clients WHERE client_id = $1`,
      [clientId],
    );
    expect(client).toEqual({ name: 'Orders sync', state: 'awaiting_scopes' });
    expect(await sidebarCount(page, 'Access requests')).toBe('');
    await page.context().close();
  });

  it('the IT department sees the client awaiting scopes, ticks one, and the first handover goes out', async () => {
    await apps.mailTo('ivan@example.com', /client Orders sync awaits scopes/);
    const page = await signIn(ivan);
    expect(await sidebarCount(page, 'Clients')).toMatch(/^1\b/);
    expect(await overviewFigure(page, 'Clients awaiting scopes')).toBe('1');
    await checkPage(page, shots, 'it-overview');
    await page.locator('a.card', { hasText: 'Clients awaiting scopes' }).click();
    await page.waitForURL((url) => url.pathname === '/console/clients');
    await checkPage(page, shots, 'it-clients');
    await page.getByRole('link', { name: 'Orders sync' }).first().click();
    await page.waitForURL((url) => url.pathname === `/console/clients/${clientId}`);
    await checkPage(page, shots, 'it-client');
    await page.getByLabel('Orders.Read').check();
    await page.getByRole('button', { name: 'Save scopes' }).click();
    await page.getByRole('status').first().waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('ops@partner.example');
    await checkPage(page, shots, 'it-client-saved');
    await page.setViewportSize({ width: NARROW.width, height: 1400 });
    await page.screenshot({ path: join(README_SHOTS, 'readme-client-390.png') });
    await page.setViewportSize(WIDE);
    expect(await sidebarCount(page, 'Clients')).toBe('');
    await page.context().close();
  });

  it('the technical contact reveals the credentials once and gets a token with openid-client', async () => {
    const page = await person();
    const link = apps.linkIn(await apps.mailTo('ops@partner.example', /credentials for Orders sync/), 'handover');
    await page.goto(link);
    await checkPage(page, shots, 'handover');
    await page.getByRole('button', { name: 'Reveal' }).click();
    await page.locator('#client-secret').waitFor();
    await checkPage(page, shots, 'handover-revealed');
    expect(await page.locator('#client-id').textContent()).toBe(clientId);
    secret = (await page.locator('#client-secret').textContent())!;
    const authority = `${publicUrl}/${apps.tenant.tenantId}`;
    const config = await oidc.discovery(new URL(`${authority}/v2.0`), clientId, secret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    // The token endpoint hears of the new secret through NOTIFY, a few milliseconds after the commit.
    const deadline = Date.now() + 2000;
    let tokens: oidc.TokenEndpointResponse | undefined;
    while (!tokens) {
      try {
        tokens = await oidc.clientCredentialsGrant(config, { scope: 'api://orders/.default' });
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({ azp: clientId, roles: ['Orders.Read'] });
    expect((await page.goto(link))?.status()).toBe(410);
    await checkPage(page, shots, 'handover-used');
    await page.context().close();
  });

  it('the partner chooses a password through the one invitation link, accepts it and reads the section', async () => {
    const page = await person();
    expect(apps.sink.messages.filter((m) => /Set up your account/.test(m.subject))).toEqual([]);
    await page.goto(
      apps.linkIn(await apps.mailTo('pat@partner.example', /invited to private documentation/), 'invitations'),
    );
    await checkPage(page, shots, 'activate');
    await page.getByLabel(/^New password/).fill(PARTNER_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(PARTNER_PASSWORD);
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await page.getByRole('button', { name: 'Accept' }).waitFor();
    await checkPage(page, shots, 'invitation');
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL((url) => url.pathname === '/docs');
    await checkPage(page, shots, 'docs');
    await page.getByRole('link', { name: 'Getting started' }).click();
    await expect(page.locator('article').textContent()).resolves.toContain('First steps with the Orders API.');
    await checkPage(page, shots, 'docs-section');
    await page.context().close();
  });

  it('an Auditor finds every step in Audit by the client and the request, with who did it; the CSV holds them and no secret', async () => {
    const page = await signIn(audrey);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit' }).click();
    const byClient = await filteredByTarget(page, clientId, 'audit-client');
    expect(byClient.rows).toEqual(
      sorted([
        ['Gatehouse', 'client.handover.revealed', '127.0.0.1'],
        ['Gatehouse', 'client.secret.created', '127.0.0.1'],
        ['Ivan Example', 'client.scopes.set', '127.0.0.1'],
        ['Gatehouse', 'client.handover.created', '—'],
        ['Carla Example', 'client.created', '127.0.0.1'],
      ]),
    );
    const byRequest = await filteredByTarget(page, requestId, 'audit-request');
    expect(byRequest.rows).toEqual(
      sorted([
        ['Pat Partner', 'access_request.fulfilled', '127.0.0.1'],
        ['Gatehouse', 'access_request.delivered', '127.0.0.1'],
        ['Gatehouse', 'access_request.handover_sent', '—'],
        ['Carla Example', 'access_request.approved', '127.0.0.1'],
        ['Gatehouse', 'access_request.confirmed', '127.0.0.1'],
        ['Gatehouse', 'access_request.created', '127.0.0.1'],
      ]),
    );
    const both = `${byClient.csv}\n${byRequest.csv}`;
    for (const action of [
      'client.created',
      'client.scopes.set',
      'client.handover.revealed',
      'access_request.approved',
      'access_request.fulfilled',
    ]) {
      expect(both).toContain(`,${action},`);
    }
    expect(both).toMatch(/^[^,]+,Carla Example,carla,[0-9a-f-]{36},,client\.created,client,/m);
    expect(both).toMatch(/^[^,]+,Ivan Example,ivan,[0-9a-f-]{36},,client\.scopes\.set,client,/m);
    expect(both).not.toContain(secret);
    // The handover that went out by itself belongs to the HTTP request of Ivan's scope change.
    const requestIdOf = (action: string) =>
      new RegExp(`,${action.replace(/\./g, '\\.')},client,[^,]*,[^,]+,[^,]*,([0-9a-f-]{36})\r?$`, 'm').exec(
        byClient.csv,
      )?.[1];
    expect(requestIdOf('client.handover.created')).toEqual(expect.any(String));
    expect(requestIdOf('client.handover.created')).toBe(requestIdOf('client.scopes.set'));
    expect(await page.content()).not.toContain(secret);
    await page.context().close();
  });
});
