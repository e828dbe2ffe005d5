import { resolve } from 'node:path';
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EmailAdminService,
  MailOutbox,
  OutboxDeliveryService,
  SMTP_CONNECTIONS,
  invitationEmail,
} from '@gatehouse/mail';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { createWorker } from '../apps/worker/src/worker.app.js';
import { workerRole } from '../apps/worker/src/worker-role.js';
import { runApps } from '@gatehouse/http';
import { AdminFixtures, type TenantFixture } from './support/admin-fixtures.js';
import { LocalProcess, freePort } from './support/compose-topology.js';
import { LogCapture } from './support/log-capture.js';
import { SmtpSink } from './support/smtp-sink.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

const CLI = resolve(import.meta.dirname, '../dist/apps/cli/src/main.js');
const HOUR = 3_600_000;
const QUIET = {
  keyRotation: HOUR,
  invitationExpiry: HOUR,
  secretExpiryWarning: HOUR,
  throttlePurge: HOUR,
  sessionPurge: HOUR,
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** SECURITY 40–41 under long faults: a long SMTP outage, a worker killed with SIGKILL, a slow SMTP server. */
describe('outbox under faults', () => {
  const sink = new SmtpSink();
  let database: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let tenant: TenantFixture;
  const workers: INestApplicationContext[] = [];

  const enqueue = async (count: number, prefix: string) => {
    const mail = invitationEmail({
      displayName: 'X',
      sections: ['S'],
      link: 'http://localhost:3000/invitations/t',
      expiresAt: new Date(),
    });
    const entries = Array.from({ length: count }, (_, i) => ({
      tenantId: tenant.tenantId,
      to: `${prefix}${i}@example.com`,
      mail,
    }));
    await dataSource.transaction((em) => app.get(MailOutbox).enqueueMany(em, entries));
  };
  const delivered = (prefix: string) => sink.messages.filter((m) => m.envelopeTo[0]!.startsWith(prefix));
  const statuses = async () =>
    Object.fromEntries(
      (
        (await dataSource.query(`SELECT status, count(*)::int AS n FROM emails GROUP BY status`)) as Array<{
          status: string;
          n: number;
        }>
      ).map((r) => [r.status, r.n]),
    );

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    const config = testConfig(database.url, { smtpUrl: sink.url });
    app = await createAdminApp({ config, logDestination: new LogCapture() });
    dataSource = app.get(DataSource);
    tenant = await new AdminFixtures(app, config).tenant();
  });

  beforeEach(async () => {
    await dataSource.query(`DELETE FROM emails`);
    sink.messages.length = 0;
    sink.delayMs = 0;
    sink.hold = undefined;
    sink.received = 0;
  });

  afterAll(async () => {
    for (const worker of workers) await worker.close();
    await app?.close();
    await sink.stop();
    await database?.drop();
  });

  it('SMTP down past the old five-attempt cap, then back: the probe wakes the queue and each mail is sent once', async () => {
    await sink.stop();
    const config = testConfig(database.url, { smtpUrl: sink.url, mailRetryHours: 0.05 });
    const worker = await createWorker({
      config,
      logDestination: new LogCapture(),
      jobs: {
        intervals: { ...QUIET, outboxDelivery: 100, smtpProbe: 200 },
        delivery: { baseBackoffMs: 100, maxBackoffMs: 60_000 },
      },
    });
    workers.push(worker);
    await enqueue(10, 'outage');
    // Each mail failed more than the five attempts that used to abandon it, and waits >2 s for the next.
    await until(
      'six failed attempts each',
      async () => {
        const [row] = await dataSource.query(
          `SELECT count(*)::int AS n FROM emails WHERE status = 'failed' AND attempts >= 6 AND next_attempt_at > now() + interval '2 seconds'`,
        );
        return row.n === 10 ? true : undefined;
      },
      20_000,
    );
    const [waiting] = await dataSource.query(
      `SELECT min(next_attempt_at) AS due, min(retry_until) > now() + interval '2 minutes' AS window_open FROM emails`,
    );
    expect(waiting.window_open).toBe(true);
    const view = (await app.get(EmailAdminService).list(tenant.tenantId, {})).items[0]!;
    expect(view.lastError).toMatch(/^unreachable: /);
    expect(Date.parse(view.nextAttemptAt!)).toBeGreaterThan(Date.now());

    await sink.start();
    const mails = await until(
      'every mail',
      async () => (delivered('outage').length >= 10 ? delivered('outage') : undefined),
      10_000,
    );
    const deliveredAt = Date.now();
    expect(deliveredAt).toBeLessThan(new Date(waiting.due).getTime()); // before any backoff ran out: the probe woke them
    await sleep(500);
    expect(delivered('outage')).toHaveLength(10);
    expect(new Set(mails.map((m) => m.parsed.messageId)).size).toBe(10);
    expect(await statuses()).toEqual({ sent: 10 });
    await worker.close();
    workers.splice(workers.indexOf(worker), 1);
  });

  it('a transient failure after the retry window is abandoned, and says why with no future attempt', async () => {
    await sink.stop();
    await enqueue(1, 'late');
    const delivery = app.get(OutboxDeliveryService);
    expect(await delivery.deliverDue(10, { retryForMs: 0 })).toEqual({ claimed: 1, sent: 0, failed: 1 });
    await sink.start();
    const [view] = (await app.get(EmailAdminService).list(tenant.tenantId, { status: 'abandoned' })).items;
    expect(view).toMatchObject({ status: 'abandoned', nextAttemptAt: null, attempts: 1 });
    expect(view!.lastError).toMatch(/^unreachable: .*ECONNREFUSED/);
  });

  it('a live worker renews its lease: a batch slower than the lease is not taken over (no duplicates)', async () => {
    sink.delayMs = 300;
    const config = testConfig(database.url, { smtpUrl: sink.url, outboxLeaseSeconds: 0.6 });
    const jobs = { intervals: { ...QUIET, outboxDelivery: 100, smtpProbe: HOUR }, deliveryBatchSize: 10 };
    const pair = [
      await createWorker({ config, jobs, logDestination: new LogCapture() }),
      await createWorker({ config, jobs, logDestination: new LogCapture() }),
    ];
    workers.push(...pair);
    await enqueue(12, 'slow');
    await until('every slow mail', async () => (delivered('slow').length >= 12 ? true : undefined), 20_000);
    await sleep(800);
    expect(delivered('slow')).toHaveLength(12);
    expect(new Set(delivered('slow').map((m) => m.parsed.messageId)).size).toBe(12);
    for (const worker of pair) await worker.close();
    workers.splice(workers.indexOf(pair[0]!), 2);
  });

  it('a worker stopped (SIGTERM) mid-batch finishes the batch it holds, then exits 0', async () => {
    sink.delayMs = 200;
    await enqueue(6, 'draining');
    const config = testConfig(database.url, { smtpUrl: sink.url, managementPort: 0 });
    let stop!: () => void;
    const stopSignal = new Promise<void>((r) => (stop = r));
    const jobs = { intervals: { ...QUIET, outboxDelivery: 100, smtpProbe: HOUR } };
    const exit = runApps(config, [workerRole(config, jobs)], { log: () => undefined, stopSignal });
    await until('the batch under way', async () => (sink.received >= 1 ? true : undefined), 20_000);
    stop();
    expect(await exit).toBe(0);
    expect(await statuses()).toEqual({ sent: 6 });
    expect(delivered('draining')).toHaveLength(6);
  });

  it('a worker killed with SIGKILL mid-batch: another takes its mails over once the short lease lapses', async () => {
    let release!: () => void;
    sink.hold = new Promise<void>((r) => (release = r));
    await enqueue(20, 'killed');
    const env = {
      PATH: process.env.PATH!,
      DATABASE_URL: database.url,
      SMTP_URL: sink.url,
      OUTBOX_LEASE_SECONDS: '3',
      SECRET_PEPPER: '11'.repeat(32),
      KEY_ENCRYPTION_KEY: '22'.repeat(32),
      MANAGEMENT_PORT: String(await freePort()),
      DATA_DIR: testConfig(database.url).dataDir,
      LOG_LEVEL: 'error',
    };
    const doomed = new LocalProcess('worker', [process.execPath, CLI, 'worker'], env);
    await until('the worker mid-send', async () => (sink.received >= 1 ? true : undefined), 30_000);
    expect(await statuses()).toMatchObject({ sending: 20 });
    const [lease] = await dataSource.query(
      `SELECT extract(epoch FROM min(locked_until) - now())::float8 AS left FROM emails`,
    );
    expect(lease.left).toBeGreaterThan(1); // a live claim, renewed by the worker
    await doomed.stop('SIGKILL');
    const killedAt = Date.now();
    release();
    sink.hold = undefined;
    const config = testConfig(database.url, { smtpUrl: sink.url });
    workers.push(
      await createWorker({
        config,
        logDestination: new LogCapture(),
        jobs: { intervals: { ...QUIET, outboxDelivery: 200 } },
      }),
    );
    await until(
      'every mail of the killed worker',
      async () => ((await statuses()).sent === 20 ? true : undefined),
      20_000,
    );
    const takeoverMs = Date.now() - killedAt;
    const ids = delivered('killed').map((m) => m.parsed.messageId);
    console.log(
      `[outbox] SIGKILL mid-batch: all 20 sent ${takeoverMs} ms after the kill (lease 3 s); ${ids.length - new Set(ids).size} duplicates`,
    );
    expect(takeoverMs).toBeGreaterThan(lease.left * 1000 - 500); // nobody took a live claim
    expect(takeoverMs).toBeLessThan(3_000 + 5_000);
    expect(new Set(ids).size).toBe(20);
    expect(ids.length - new Set(ids).size).toBeLessThanOrEqual(SMTP_CONNECTIONS);
  });
});
