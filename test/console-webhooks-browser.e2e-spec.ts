import type { INestApplicationContext } from '@nestjs/common';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchedulerService } from '../apps/worker/src/scheduler.service.js';
import { createWorker } from '../apps/worker/src/worker.app.js';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, signInInBrowser, startConsoleApp } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';
import { RECEIVER_CA, WebhookReceiver } from './support/webhook-receiver.js';

/** The Webhooks pages in Chromium: axe-core and screenshots at 1280 and 390 px, step-up, the secret once, the delivery log. */
describe('console webhooks in a browser (DESIGN §13)', () => {
  let app: ConsoleApp;
  let worker: INestApplicationContext;
  let browser: Browser;
  let page: Page;
  let ada: StaffMember;
  const receiver = new WebhookReceiver();
  const shots = new Screenshots('console-webhooks');
  const ageSecondFactor = () => app.db.query(`UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1`, [ada.id]);
  const stepUp = async () => {
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    await page.getByLabel('Authentication code').fill(await app.staff.secondFactor(ada));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
  };
  const deliver = () => worker.get(SchedulerService).deliverWebhooks();

  beforeAll(async () => {
    await receiver.start();
    app = await startConsoleApp({ config: { webhookPrivateTargets: [receiver.url], outboundCa: RECEIVER_CA } });
    worker = await createWorker({ config: app.config, jobs: { intervals: { webhookDelivery: 3_600_000 }, webhooks: { idlePollMs: 20 } } });
    ada = await app.staff.staff(app.tenantId, ['Administrator'], { username: 'ada' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, ada, await app.staff.secondFactor(ada));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.close();
    await app?.close();
    await receiver.stop();
  });

  it('creates a webhook after a step-up, shows the secret once, then the log, test, redeliver, rotate and delete', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL((url) => url.pathname === '/console/webhooks');
    await checkPage(page, shots, 'webhooks-empty');
    await page.getByRole('link', { name: 'New webhook' }).click();
    await checkPage(page, shots, 'webhooks-new');
    await page.getByLabel('Endpoint URL').fill('http://hooks.example.com/gatehouse');
    await page.getByLabel('Events').fill('client.secrets.*');
    await ageSecondFactor();
    await page.getByRole('button', { name: 'Create the webhook' }).click();
    await stepUp();
    await expect(page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage(page, shots, 'webhooks-new-refused');
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Events').fill('client.*, user.created');
    await page.getByLabel('Description (optional)').fill('Secrets vault sync');
    await page.getByRole('button', { name: 'Create the webhook' }).click();
    await page.getByRole('heading', { name: 'Copy the signing secret now' }).waitFor();
    const secret = (await page.locator('#webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await expect(page.getByRole('button', { name: 'Copy signing secret' }).count()).resolves.toBe(1);
    await checkPage(page, shots, 'webhooks-secret');
    receiver.secrets = [secret];

    await page.getByRole('link', { name: 'I have stored it: back to the webhook' }).click();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Test event queued');
    await deliver();
    await page.reload();
    await expect(page.getByRole('cell', { name: /webhook\.tested/ }).count()).resolves.toBe(1);
    expect(receiver.received.map((r) => r.type)).toEqual(['webhook.tested']);
    await checkPage(page, shots, 'webhooks-detail');
    await page.getByRole('link', { name: 'Webhooks', exact: true }).first().click();
    await checkPage(page, shots, 'webhooks-list');
    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('button', { name: 'Redeliver' }).first().click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('queued again, with the same webhook-id');
    await deliver();
    expect(receiver.received.map((r) => r.type)).toEqual(['webhook.tested', 'webhook.tested']);
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id); // sent again with its webhook-id

    await ageSecondFactor();
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
    await stepUp();
    await page.getByRole('heading', { name: 'Copy the signing secret now' }).waitFor();
    const rotated = (await page.locator('#webhook-secret').textContent())!.trim();
    expect(rotated).not.toBe(secret);
    await checkPage(page, shots, 'webhooks-rotated');

    await page.getByRole('link', { name: 'I have stored it: back to the webhook' }).click();
    await page.getByRole('link', { name: 'Delete the webhook' }).click();
    await checkPage(page, shots, 'webhooks-delete');
    await page.getByRole('button', { name: 'Delete the webhook' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('deleted: nothing more is sent to it');
    await checkPage(page, shots, 'webhooks-after-delete');
  });

  it('is not for other staff: a Contact person gets the 403 page and no menu entry', async () => {
    const carla = await app.staff.staff(app.tenantId, ['ContactPerson'], { username: 'carla' });
    const other = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(other, `${app.origin}/console/login`, carla, await app.staff.secondFactor(carla));
    await expect(other.getByRole('link', { name: 'Webhooks' }).count()).resolves.toBe(0);
    const answer = await other.goto(`${app.origin}/console/webhooks`);
    expect(answer?.status()).toBe(403);
  });
});
