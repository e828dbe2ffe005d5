import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchedulerService } from '../apps/worker/src/scheduler.service.js';
import { WebhookRig } from './support/webhook-apps.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('webhook order: two workers, one in flight per subscription, late commits (DESIGN §13)', () => {
  const rig = new WebhookRig(3);
  const [first, second, held] = rig.receivers as [typeof rig.receivers[0], typeof rig.receivers[0], typeof rig.receivers[0]];

  beforeAll(() => rig.start({ workers: 2, webhooks: { batchSize: 7 } }));
  afterAll(() => rig.stop());

  /** The ids of the tenant's `client.created` events, oldest first. */
  async function createdEvents(): Promise<string[]> {
    const items: Json[] = (await rig.call('get', '/audit-events?action=client.created&limit=200')).body.items;
    return items.map((e) => e.id).reverse();
  }

  it('two workers deliver each event once, in order, to each of two subscriptions', async () => {
    await rig.subscribe(first, ['client.created']);
    await rig.subscribe(second, ['client.*']);
    for (let i = 0; i < 40; i++) await rig.write(`Client ${i}`);
    const passes = rig.workers.map((worker) => worker.get(SchedulerService));
    while (first.received.length < 40 || second.received.length < 40) {
      await Promise.all([...passes, ...passes].map((pass) => pass.deliverWebhooks()));
    }
    const expected = (await createdEvents()).slice(-40); // the ones written since the subscriptions
    expect(expected).toHaveLength(40);
    expect(first.received.map((r) => r.id)).toEqual(expected); // each once, none twice, in order
    expect(second.received.map((r) => r.id)).toEqual(expected);
    expect(first.maxConcurrent).toBe(1); // one in flight per subscription, whichever worker sends
    expect(second.maxConcurrent).toBe(1);
  }, 90_000);

  it('holds back an event committed after a later one, then sends both in transaction order', async () => {
    const hook = await rig.subscribe(held, ['client.created']);
    let quick = '';
    const runner = rig.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      // A change that wrote its audit event first but commits last.
      await runner.query(
        `INSERT INTO audit_events (tenant_id, actor_type, action, target_type, target_id) VALUES ($1, 'system', 'client.created', 'client', 'slow')`,
        [rig.tenant.tenantId],
      );
      quick = await rig.write('Quick');
      for (let i = 0; i < 3; i++) await rig.workers[0]!.get(SchedulerService).deliverWebhooks();
      expect(held.received).toEqual([]); // the quick one waits for the older transaction to end
      expect((await rig.deliveries(hook.id)).map((d) => d.state)).toEqual(['pending']); // the slow one is not even visible yet
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    await rig.pumpUntil(() => held.received.length === 2);
    expect(held.received.map((r) => r.body.data.targetId)).toEqual(['slow', quick]);
    expect(new Set(held.received.map((r) => r.id)).size).toBe(2);
  });
});
