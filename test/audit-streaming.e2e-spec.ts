import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsRegistry } from '@gatehouse/http';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { SchedulerService } from '../apps/worker/src/scheduler.service.js';
import { SCHEDULES, type ScheduleKey } from '../apps/worker/src/schedules.js';
import { createWorker } from '../apps/worker/src/worker.app.js';
import { AdminFixtures, type OperatorFixture } from './support/admin-fixtures.js';
import { HecReceiver } from './support/hec-receiver.js';
import { freePort } from './support/http-apps.js';
import { Rsyslog } from './support/rsyslog.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { RECEIVER_CA } from './support/webhook-receiver.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const NEVER = Object.fromEntries(Object.keys(SCHEDULES).map((key) => [key, 3_600_000])) as Record<ScheduleKey, number>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('audit streaming to a SIEM: rsyslog over TCP, a Splunk HEC endpoint (DESIGN §13)', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let worker: INestApplicationContext;
  let admin: OperatorFixture;
  let rsyslog: Rsyslog;
  const hec = new HecReceiver('11111111-2222-3333-4444-555555555555');
  const written: string[] = [];

  const write = async (name: string) => {
    const answer = await request(app.getHttpServer()).post('/admin/v1/clients').set('authorization', `Bearer ${admin.token}`).send({ displayName: name });
    expect(answer.status).toBe(201); // the change commits whether or not a sink is up
    written.push(answer.body.clientId);
  };
  const stream = () => worker.get(SchedulerService).streamAudit();
  const lag = async (sink: string) => {
    const text = await worker.get(MetricsRegistry).registry.metrics();
    return Number(new RegExp(`gatehouse_audit_stream_lag_seconds\\{sink="${sink}"\\} (\\S+)`).exec(text)?.[1]);
  };
  const createdIn = (events: Json[]) => events.filter((e) => e.action === 'client.created').map((e) => e.targetId);

  beforeAll(async () => {
    rsyslog = new Rsyslog(await freePort()); // not started yet: the syslog sink is down at first
    await hec.start();
    database = await createTestDatabase();
    const config = testConfig(database.url, {
      auditSyslogUrl: `tcp://127.0.0.1:${rsyslog.port}`,
      auditHecUrl: hec.url,
      auditHecToken: hec.token,
      outboundCa: RECEIVER_CA,
    });
    app = await createAdminApp({ config });
    const fixtures = new AdminFixtures(app, config);
    admin = await fixtures.operator(await fixtures.tenant(), ['Administrator']);
    worker = await createWorker({ config, jobs: { intervals: NEVER, auditStream: { batchSize: 4, restMs: 20, maxRestMs: 40 } } });
  });

  afterAll(async () => {
    await worker?.close();
    await app?.close();
    await rsyslog?.stop();
    await hec.stop();
    await database?.drop();
  });

  it('a sink that is down delays its stream but never the change; the lag shows it', async () => {
    for (let i = 0; i < 6; i++) await write(`While syslog is down ${i}`);
    hec.failNext = 1;
    await stream(); // syslog refused, HEC answered 503: both fall behind
    expect(hec.events()).toEqual([]);
    await sleep(1_100);
    expect(await lag('syslog')).toBeGreaterThanOrEqual(1);
    expect(await lag('hec')).toBeGreaterThanOrEqual(1);
  });

  it('sends every event to the HEC endpoint in batches, in order, once it answers', async () => {
    for (let attempt = 0; createdIn(hec.events().map((e) => e.event)).length < 6 && attempt < 100; attempt++) {
      await stream();
      await sleep(25);
    }
    expect(createdIn(hec.events().map((e) => e.event))).toEqual(written);
    expect(hec.batches.length).toBeGreaterThan(1); // batches of at most 4
    expect(hec.batches.every((batch) => batch.length <= 4)).toBe(true);
    const [first] = hec.events();
    expect(first).toMatchObject({ source: 'gatehouse', sourcetype: 'gatehouse:audit', event: { tenantId: expect.any(String), actor: expect.any(Object) } });
    expect(first!.time).toBe(Date.parse(first!.event.occurredAt) / 1000);
    expect(await lag('hec')).toBe(0);
  });

  it('rsyslog receives RFC 5424 lines that parse, the JSON event as the message, once it is up', async () => {
    await rsyslog.start();
    for (let i = 0; i < 3; i++) await write(`With syslog up ${i}`);
    const events = () => rsyslog.lines().map((line) => JSON.parse(line.message) as Json);
    for (let attempt = 0; createdIn(events()).length < 9 && attempt < 200; attempt++) {
      await stream();
      await sleep(25);
    }
    const lines = rsyslog.lines();
    expect(createdIn(events())).toEqual(written); // every one, in order, none lost while it was down
    for (const line of lines) {
      expect(line).toMatchObject({ priority: 110, version: 1, app: 'gatehouse', structuredData: '-' });
      expect(Number.isNaN(Date.parse(line.timestamp))).toBe(false);
      expect(line.msgId).toBe(JSON.parse(line.message).action);
    }
    expect(new Set(lines.map((line) => JSON.parse(line.message).id)).size).toBe(lines.length);
    expect(createdIn(hec.events().map((e) => e.event))).toEqual(written);
    expect(await lag('syslog')).toBe(0);
  });
});
