import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { SchedulerService } from '../apps/worker/src/scheduler.service.js';
import { ENDED_BEFORE } from '../libs/events/src/webhook-delivery.repository.js';
import { WebhookRig, sleep } from './support/webhook-apps.js';

const IDLE_POLL_MS = 100;

/** The statements one worker sends, by kind, while `work` runs (through TypeORM's query logger, which sees every one). */
async function statementsDuring(db: DataSource, work: () => Promise<unknown>): Promise<{ claims: number; others: string[]; ms: number }> {
  const seen: string[] = [];
  const logger = db.logger;
  const logQuery = logger.logQuery;
  logger.logQuery = (query, parameters, runner) => {
    seen.push(query.replace(/\s+/g, ' ').trim());
    logQuery.call(logger, query, parameters, runner);
  };
  const started = Date.now();
  try {
    await work();
  } finally {
    logger.logQuery = logQuery;
  }
  const claims = seen.filter((q) => q.startsWith('WITH claimed AS (UPDATE webhook_subscriptions')).length;
  return { claims, others: seen.filter((q) => !q.startsWith('WITH claimed AS (UPDATE webhook_subscriptions')), ms: Date.now() - started };
}

describe('webhook delivery cost: statements per batch, not per delivery (DESIGN §13)', () => {
  const rig = new WebhookRig(2);
  const [first, second] = rig.receivers as [typeof rig.receivers[0], typeof rig.receivers[0]];
  const pass = () => rig.workers[0]!.get(SchedulerService).deliverWebhooks();
  const workerDb = () => rig.workers[0]!.get(DataSource);

  beforeAll(() => rig.start({ workers: 1, webhooks: { idlePollMs: IDLE_POLL_MS } }));
  afterAll(() => rig.stop());

  it('a pass with nothing due costs one claim', async () => {
    const { claims, others } = await statementsDuring(workerDb(), pass);
    expect(claims).toBe(1); // one lane looks; the other lanes wait for work it finds
    expect(others).toEqual([]);
  });

  it('sends 30 events to each of two subscriptions with one read and one write per subscription, over kept-alive connections', async () => {
    await rig.subscribe(first, ['client.created']);
    await rig.subscribe(second, ['client.*']);
    const written: string[] = [];
    for (let i = 0; i < 30; i++) written.push(await rig.write(`Batched ${i}`));
    // Rows are sent once every older transaction on the server has ended (another database's too): wait until all 60 are.
    const readable = async () =>
      (await rig.db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'pending' AND transaction_id < ${ENDED_BEFORE}`))[0].n === 60;
    for (let i = 0; i < 300 && !(await readable()); i++) await sleep(50);
    const { claims, others, ms } = await statementsDuring(workerDb(), pass);
    for (const receiver of [first, second]) {
      expect(receiver.received.map((r) => r.body.data.targetId)).toEqual(written); // each once, in order
      expect(receiver.maxConcurrent).toBe(1);
      expect(receiver.connections).toBe(1); // one kept-alive connection carried all 30
    }
    // Per subscription: its due deliveries with their audit events in one read, the successes and the release in one write.
    expect(others.filter((q) => q.startsWith('SELECT') && q.includes('webhook_deliveries'))).toHaveLength(2);
    expect(others.filter((q) => q.startsWith('WITH delivered AS ( UPDATE webhook_deliveries'))).toHaveLength(2);
    expect(others).toHaveLength(4);
    // Two claims found work; while they sent, one idle lane at a time looked again every poll interval.
    expect(claims).toBeLessThanOrEqual(2 + 2 + Math.ceil(ms / IDLE_POLL_MS));
    expect((await rig.db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'delivered' AND attempts = 1`))[0].n).toBe(60);
  });
});
