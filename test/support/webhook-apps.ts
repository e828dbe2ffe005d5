import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@gatehouse/config';
import type { RetrySettings, WebhookDeliverySettings } from '@gatehouse/events';
import { createAdminApp } from '../../apps/admin/src/admin.app.js';
import { SchedulerService } from '../../apps/worker/src/scheduler.service.js';
import { SCHEDULES, type ScheduleKey } from '../../apps/worker/src/schedules.js';
import { createWorker } from '../../apps/worker/src/worker.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './admin-fixtures.js';
import { testConfig } from './test-config.js';
import { type TestDatabase, createTestDatabase } from './test-database.js';
import { RECEIVER_CA, WebhookReceiver } from './webhook-receiver.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Short waits instead of 5 s … hourly, so an outage of "a while" fits in a test. */
export const SHORT_RETRY: RetrySettings = { delaysMs: [150, 300, 600], jitter: 0.2, giveUpAfterMs: 3_600_000, maxRetryAfterMs: 2_000 };

const NEVER = Object.fromEntries(Object.keys(SCHEDULES).map((key) => [key, 3_600_000])) as Record<ScheduleKey, number>;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The admin app, workers whose webhook pass a test runs by hand (no timer sends behind its back),
 * receivers (real HTTPS endpoints) and an Administrator of one tenant.
 */
export class WebhookRig {
  database!: TestDatabase;
  app!: INestApplication;
  config!: AppConfig;
  tenant!: TenantFixture;
  admin!: OperatorFixture;
  readonly workers: INestApplicationContext[] = [];
  readonly receivers: WebhookReceiver[];

  constructor(receivers: number) {
    this.receivers = Array.from({ length: receivers }, () => new WebhookReceiver());
  }

  async start(options: { workers?: number; webhooks?: Partial<WebhookDeliverySettings>; config?: Partial<AppConfig> } = {}): Promise<void> {
    const urls = await Promise.all(this.receivers.map((r) => r.start()));
    this.database = await createTestDatabase();
    this.config = testConfig(this.database.url, { webhookPrivateTargets: urls, outboundCa: RECEIVER_CA, ...options.config });
    this.app = await createAdminApp({ config: this.config });
    const fixtures = new AdminFixtures(this.app, this.config);
    this.tenant = await fixtures.tenant();
    this.admin = await fixtures.operator(this.tenant, ['Administrator']);
    const webhooks = { retry: SHORT_RETRY, idlePollMs: 20, ...options.webhooks };
    for (let i = 0; i < (options.workers ?? 1); i++) {
      this.workers.push(await createWorker({ config: this.config, jobs: { intervals: NEVER, webhooks } }));
    }
  }

  async stop(): Promise<void> {
    for (const worker of this.workers) await worker.close();
    await this.app?.close();
    for (const receiver of this.receivers) await receiver.stop();
    await this.database?.drop();
  }

  get db(): DataSource {
    return this.app.get(DataSource);
  }

  call(method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) {
    const req = request(this.app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${this.admin.token}`);
    return body === undefined ? req : req.send(body);
  }

  /** A webhook to `receiver` for `events`; the receiver learns its secret. */
  async subscribe(receiver: WebhookReceiver, events: string[]): Promise<Json> {
    const answer = await this.call('post', '/webhooks', { url: receiver.url, events });
    if (answer.status !== 201) throw new Error(`webhook not created: ${JSON.stringify(answer.body)}`);
    receiver.secrets = [answer.body.secret];
    return answer.body;
  }

  /** An audited admin write: a new client (`client.created`). */
  async write(name: string): Promise<string> {
    const answer = await this.call('post', '/clients', { displayName: name });
    if (answer.status !== 201) throw new Error(`client not created: ${JSON.stringify(answer.body)}`);
    return answer.body.clientId;
  }

  /** Runs webhook passes on `worker` until `done()` holds (or fails after `timeoutMs`). */
  async pumpUntil(done: () => boolean | Promise<boolean>, timeoutMs = 15_000, worker = 0): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error('webhook deliveries did not arrive in time');
      await this.workers[worker]!.get(SchedulerService).deliverWebhooks();
      await sleep(30);
    }
  }

  async deliveries(webhookId: string): Promise<Json[]> {
    return (await this.call('get', `/webhooks/${webhookId}/deliveries?limit=200`)).body.items;
  }
}
