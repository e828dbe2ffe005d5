import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchedulerService } from '../apps/worker/src/scheduler.service.js';
import { WebhookRig, sleep } from './support/webhook-apps.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('webhook outages: a dead endpoint, a hanging one, one given up after 3 days (DESIGN §13)', () => {
  const rig = new WebhookRig(4);
  const [down, hanging, healthy, abandoned] = rig.receivers as [typeof rig.receivers[0], typeof rig.receivers[0], typeof rig.receivers[0], typeof rig.receivers[0]];

  beforeAll(() => rig.start({ webhooks: { timeoutMs: 4_000 } }));
  afterAll(() => rig.stop());

  it('an endpoint down for a while receives every event afterwards, in order, each id once', async () => {
    const hook = await rig.subscribe(down, ['client.created']);
    let outage = true;
    down.behaviour = (attempt) => (outage ? { status: attempt % 2 ? 503 : 502 } : { status: 200 });
    const written: string[] = [];
    for (let i = 0; i < 15; i++) {
      written.push(await rig.write(`During the outage ${i}`));
      await rig.workers[0]!.get(SchedulerService).deliverWebhooks();
    }
    await rig.pumpUntil(async () => (await rig.deliveries(hook.id)).some((d) => d.attempts >= 4)); // retried with backoff
    expect(down.received).toEqual([]);
    const waiting = await rig.deliveries(hook.id);
    expect(waiting.every((d: Json) => d.state === 'pending')).toBe(true);
    expect(waiting.filter((d: Json) => d.attempts > 0)).toHaveLength(1); // only the oldest is tried: one in flight, in order
    outage = false;
    for (let i = 0; i < 5; i++) written.push(await rig.write(`After the outage ${i}`));
    await rig.pumpUntil(() => down.ids().length === 20);
    expect(down.received.map((r) => r.body.data.targetId)).toEqual(written);
    expect(down.ids()).toHaveLength(20);
    expect((await rig.deliveries(hook.id)).every((d: Json) => d.state === 'delivered')).toBe(true);
  });

  it('a hanging endpoint delays neither another subscription nor the admin write', async () => {
    await rig.subscribe(hanging, ['client.created']);
    const hook = await rig.subscribe(healthy, ['client.created']);
    hanging.behaviour = () => 'hang';
    await rig.write('While one hangs');
    const pass = rig.workers[0]!.get(SchedulerService).deliverWebhooks();
    await rig.pumpUntil(() => healthy.received.length === 1, 3_500, 0);
    const second = await rig.write('Written while the endpoint hangs');
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(hanging.received.length).toBe(0); // still hanging: the other subscription was served meanwhile
    await pass;
    await rig.pumpUntil(() => healthy.received.length === 2);
    const attempts = (await rig.call('get', '/webhooks?limit=200')).body.items.find((h: Json) => h.url === hanging.url);
    const log = await rig.deliveries(attempts.id);
    expect(log.at(-1)).toMatchObject({ state: 'pending', lastError: 'the server did not answer in time' });
    expect((await rig.deliveries(hook.id)).every((d: Json) => d.state === 'delivered')).toBe(true);
    await rig.call('patch', `/webhooks/${attempts.id}`, { enabled: false });
  });

  it('gives an event up after 3 days, marks the webhook failing, tells the Administrators, then recovers', async () => {
    abandoned.behaviour = () => ({ status: 500 });
    const hook = await rig.subscribe(abandoned, ['client.created']);
    await rig.write('Never taken');
    await rig.pumpUntil(async () => (await rig.deliveries(hook.id))[0]?.attempts === 1);
    await rig.db.query(`UPDATE webhook_deliveries SET created_at = now() - interval '73 hours', next_attempt_at = now() WHERE subscription_id = $1`, [hook.id]);
    await rig.pumpUntil(async () => (await rig.call('get', `/webhooks/${hook.id}`)).body.state === 'failing');
    expect((await rig.deliveries(hook.id))[0]).toMatchObject({ state: 'failed', attempts: 2, lastStatusCode: 500 });
    const mails = await rig.db.query(`SELECT to_address, subject FROM emails WHERE template = 'webhook-trouble'`);
    expect(mails).toEqual([{ to_address: rig.admin.user.email, subject: `Webhook failing: ${abandoned.url}` }]);
    expect((await rig.call('get', `/audit-events?action=webhook.failing&target=${hook.id}`)).body.items).toHaveLength(1);
    abandoned.behaviour = () => ({ status: 200 });
    await rig.write('Taken again');
    await rig.pumpUntil(() => abandoned.received.length === 1);
    await sleep(50);
    expect((await rig.call('get', `/webhooks/${hook.id}`)).body).toMatchObject({ state: 'active', stateReason: null });
    const givenUp = (await rig.deliveries(hook.id)).find((d: Json) => d.state === 'failed');
    const redelivered = await rig.call('post', `/webhooks/${hook.id}/deliveries/${givenUp!.id}/redeliver`);
    expect(redelivered.status).toBe(202);
    await rig.pumpUntil(() => abandoned.received.length === 2);
    expect(abandoned.received[1]!.body.data.action).toBe('client.created');
  });
});
