import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandoverSweepService } from '@gatehouse/handovers';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';
import { Screenshots, launchBrowser } from './support/browser.js';
import { ConsoleFixtures, type StaffMember, overviewFigure, signInInBrowser } from './support/console.js';
import { checkPage } from './support/page-checks.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const QUEUE = 'Handovers expired without being revealed';
const shots = new Screenshots('handover-resend');

/**
 * A handover that expired without being revealed: it waits in the Overview's queue until someone
 * sends it again (to the same recipient, audited) from the client's page or the REST API.
 */
describe('expired handovers: the queue and Resend', () => {
  const apps = new AccessApps();
  let browser: Browser;
  let page: Page;
  let carla: StaffMember;
  let operator: OperatorFixture;
  let auditor: OperatorFixture;
  let client: Json;

  async function expiredHandover(): Promise<Json> {
    const sent = await apps.call('post', `/clients/${client.clientId}/handovers`, operator.token, {});
    expect(sent.status).toBe(201);
    await apps.dataSource.query(`UPDATE credential_handovers SET expires_at = now() - interval '1 minute' WHERE id = $1`, [sent.body.id]);
    await apps.admin.get(HandoverSweepService).expireOverdue();
    await apps.deliver(); // the first link's mail, and the expiry notice
    return sent.body as Json;
  }

  beforeAll(async () => {
    await apps.start({}, { listenAdmin: true });
    const staff = new ConsoleFixtures(apps.admin, apps.adminUrl!);
    carla = await staff.staff(apps.tenant.tenantId, ['ContactPerson'], { username: 'carla' });
    operator = await apps.fixtures.operator(apps.tenant, ['ContactPerson']);
    auditor = await apps.fixtures.operator(apps.tenant, ['Auditor']);
    const it_ = await apps.fixtures.operator(apps.tenant, ['ITDepartment']);
    const api = await apps.call('post', '/apis', it_.token, { identifier: 'api://orders', displayName: 'Orders' });
    await apps.call('post', `/apis/${api.body.id}/scopes`, it_.token, { value: 'Orders.Read' });
    client = (await apps.call('post', '/clients', operator.token, { displayName: 'Orders sync', contactEmail: 'ops@partner.example' })).body;
    await apps.call('put', `/clients/${client.clientId}/scopes`, it_.token, { scopes: ['api://orders/Orders.Read'] });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInInBrowser(page, `${apps.adminUrl}/console/login`, carla, await staff.secondFactor(carla));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await apps.stop();
  });

  it('counts an expired handover on the Overview and lists its client', async () => {
    await expiredHandover();
    await page.goto(`${apps.adminUrl}/console`);
    expect(await overviewFigure(page, QUEUE)).toBe('1');
    await checkPage(page, shots, 'overview');
    await page.locator('a.card', { hasText: QUEUE }).click();
    await page.waitForURL((url) => url.search === '?handovers=expired');
    expect(await page.getByRole('link', { name: 'Orders sync' }).count()).toBe(1);
    await checkPage(page, shots, 'clients-expired-handovers');
  });

  it('Resend on the client page sends a new link to the same recipient, audited; the queue empties', async () => {
    await page.getByRole('link', { name: 'Orders sync' }).click();
    await expect(page.locator('#handovers-heading').locator('..').textContent()).resolves.toContain('no secret was created');
    await checkPage(page, shots, 'client-expired-handover');
    const seen = apps.sink.messages.length;
    await page.getByRole('button', { name: 'Resend to ops@partner.example' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('A new link went to ops@partner.example');
    await apps.deliver();
    const mail = apps.sink.messages.slice(seen).find((m) => m.envelopeTo.includes('ops@partner.example'))!;
    expect(mail.subject).toContain('credentials for Orders sync');
    const [event] = await apps.dataSource.query(`SELECT actor_id, details FROM audit_events WHERE action = 'client.handover.resent'`);
    expect(event.actor_id).toBe(carla.id);
    expect(event.details).toMatchObject({ recipientEmail: 'ops@partner.example', newHandoverId: expect.any(String) });
    await page.goto(`${apps.adminUrl}/console`);
    expect(await overviewFigure(page, QUEUE)).toBe('0');
    expect((await apps.visit(new URL(apps.linkIn(mail, 'handover')).pathname)).page.status).toBe(200);
  });

  it('REST: an expired handover is sent again (201); a pending one or another role is refused', async () => {
    const expired = await expiredHandover();
    expect((await apps.call('post', `/handovers/${expired.id}/resend`, auditor.token, {})).status).toBe(403);
    const resent = await apps.call('post', `/handovers/${expired.id}/resend`, operator.token, { expiresInHours: 24 });
    expect(resent.status).toBe(201);
    expect(resent.body).toMatchObject({ status: 'pending', recipientEmail: 'ops@partner.example', clientId: client.clientId });
    const again = await apps.call('post', `/handovers/${resent.body.id}/resend`, operator.token, {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('handover_not_resendable');
    const odd = await apps.call('post', `/handovers/${expired.id}/resend`, operator.token, { recipientEmail: 'eve@example.com' });
    expect(odd.status).toBe(400); // the recipient stays the one it was sent to
  });

  it('a disabled client leaves the queue', async () => {
    await expiredHandover();
    await page.goto(`${apps.adminUrl}/console`);
    expect(await overviewFigure(page, QUEUE)).toBe('1');
    await apps.call('post', `/clients/${client.clientId}/disable`, operator.token);
    await page.reload();
    expect(await overviewFigure(page, QUEUE)).toBe('0');
  });
});
