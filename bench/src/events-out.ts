import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService, ClientsModule } from '@gatehouse/clients';
import type { AppConfig } from '@gatehouse/config';
import { AuditStreamModule, AuditStreamService, DEFAULT_WEBHOOK_DELIVERY, EventsModule, WebhookDeliveryService, WebhookService } from '@gatehouse/events';
import { ensureDevCertificate } from '@gatehouse/http';
import { coreImports } from '@gatehouse/schema';
import { TenantService, TenantsModule } from '@gatehouse/tenants';
import { type BenchReceiver, CostMeter, type WorkCost, receiver, syslogReceiver } from './events-out-parts.js';

/** The issue's targets for events out (§13). */
export const EVENTS_OUT_TARGETS = { deliveredPerSec: 500, writeRatio: 0.9, tokenRatio: 0.97 } as const;

/** §13 in the bench: admin writes with two webhook subscriptions and syslog streaming on. */
export interface EventsOutFigures {
  /** Admin writes on each side (a tenant without subscriptions, one with two), in alternating blocks. */
  writes: number;
  writesPerSecBaseline: number;
  writesPerSecWithEvents: number;
  /** With two subscriptions ÷ without (target ≥ 0.9). */
  writeRatio: number;
  /** What one write cost on each side, and the CPU ratio (without ÷ with): the write ratio a host with CPU to spare would see. */
  writeCost: { baseline: WorkCost; withEvents: WorkCost };
  writeCpuRatio: number;
  /** Webhook deliveries (two per write) per second on two workers, from the end of the writes (target ≥ 500). */
  deliveries: number;
  deliveredPerSec: number;
  /** What one delivery cost the workers: CPU and statements, not skewed by a busy host as the rate is. */
  deliveryCost: WorkCost;
  /** Each receiver got every event once (no failures: no retries), in the order they were written. */
  exactlyOnce: boolean;
  inOrder: boolean;
  /** TLS connections the receivers accepted in the whole phase (keep-alive reuses a few). */
  receiverConnections: number;
  syslogFrames: number;
  /** Token rate while the workers deliver ÷ the same run's rate without them (target ≥ 0.97; null: not measured). */
  tokenRatio: number | null;
  /** Whether the deliveries went on for the whole token run (else the ratio covers some idle time too). */
  deliveriesOutlastedTokenRun: boolean | null;
  /** The host's 1-minute load average at the start and the end, and its cores: a busy host lowers the rates, not the costs. */
  load: { start: number; end: number; cores: number };
}

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Write blocks per side, alternating which side goes first (ABBA), so drift of a busy host falls on both. */
const BLOCKS = 8;

@Module({})
class EventsOutModule {
  static register(config: AppConfig, app: string): DynamicModule {
    return {
      module: EventsOutModule,
      imports: [...coreImports(config, { app, poolSize: 8, logDestination: discard }), TenantsModule, ClientsModule, EventsModule, AuditStreamModule],
    };
  }
}

const context = (config: AppConfig, app: string): Promise<INestApplicationContext> =>
  NestFactory.createApplicationContext(EventsOutModule.register(config, app), { logger: ['error'] });

/** `writes` client creations, `concurrency` at a time; answers the seconds they took. */
async function adminWrites(app: INestApplicationContext, tenantId: string, writes: number, label: string, concurrency = 8): Promise<number> {
  const clients = app.get(ClientService);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < writes) await clients.create(tenantId, SYSTEM_ACTOR, { displayName: `${label} ${next++}` });
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

type Side = 'quiet' | 'subscribed';

/** Both sides' write rates and costs from alternating blocks: the quiet tenant (no subscription) and the subscribed one. */
async function alternatingWrites(writer: INestApplicationContext, tenants: Record<Side, string>, writes: number) {
  const seconds = { quiet: 0, subscribed: 0 };
  const meter = (): CostMeter => new CostMeter([writer.get(DataSource)], ['gatehouse-bench-events-writer']);
  const meters = { quiet: meter(), subscribed: meter() };
  for (let block = 0; block < BLOCKS; block++) {
    const size = Math.floor(writes / BLOCKS) + (block < writes % BLOCKS ? 1 : 0);
    const order: Side[] = block % 4 === 0 || block % 4 === 3 ? ['quiet', 'subscribed'] : ['subscribed', 'quiet'];
    for (const side of order) seconds[side] += await meters[side].measure(() => adminWrites(writer, tenants[side], size, `${side} ${block}`));
  }
  const cost = { baseline: meters.quiet.per(writes), withEvents: meters.subscribed.per(writes) };
  const total = (c: WorkCost) => c.processCpuMs + c.databaseCpuMs;
  return { baseline: writes / seconds.quiet, withEvents: writes / seconds.subscribed, cost, cpuRatio: round(total(cost.baseline) / total(cost.withEvents), 3) };
}

/**
 * Admin writes to a tenant without subscriptions and to one with two (`client.*`) in alternating
 * blocks, syslog streaming on throughout (a deployment's setting, not a tenant's: its cost is the
 * workers' reads, not the writes'); then the subscribed tenant's deliveries on two workers, while
 * `tokenRate` (when given) measures the token endpoint beside them.
 */
export async function measureEventsOut(base: AppConfig, tenantId: string, writes: number, tokenRate?: () => Promise<number>): Promise<EventsOutFigures> {
  const certDir = mkdtempSync(join(tmpdir(), 'bench-hooks-'));
  const cert = ensureDevCertificate(certDir);
  const receivers = [await receiver(cert), await receiver(cert)];
  const syslog = await syslogReceiver();
  const config: AppConfig = {
    ...base,
    webhookPrivateTargets: receivers.map((r) => r.url),
    outboundCa: readFileSync(cert.certFile, 'utf8'),
    auditSyslogUrl: `tcp://127.0.0.1:${syslog.port}`,
  };
  const loadAtStart = loadavg()[0]!;
  const writer = await context(config, 'bench-events-writer');
  const names = ['bench-events-worker-1', 'bench-events-worker-2'];
  const workers = [await context(config, names[0]!), await context(config, names[1]!)];
  const probe = new CostMeter(workers.map((w) => w.get(DataSource)), names.map((n) => `gatehouse-${n}`));
  const subscriptions: string[] = [];
  let writing = true;
  const streaming = (async () => {
    for (let sent = 1; writing || sent > 0; ) if ((sent = await workers[0]!.get(AuditStreamService).streamDue()) === 0 && writing) await sleep(50);
  })();
  try {
    const quiet = await writer.get(DataSource).transaction((em) => writer.get(TenantService).create(em, { slug: `bench-events-${randomBytes(3).toString('hex')}`, displayName: 'No subscriptions' }));
    // Unmeasured, before the subscriptions: the pool's connections, plans and code paths warm for both tenants alike.
    for (const side of [quiet.id, tenantId]) await adminWrites(writer, side, Math.min(200, Math.ceil(writes / 10)), 'Warm-up');
    for (const r of receivers) subscriptions.push((await writer.get(WebhookService).create(tenantId, SYSTEM_ACTOR, { url: r.url, events: ['client.*'] })).id);
    const rates = await alternatingWrites(writer, { quiet: quiet.id, subscribed: tenantId }, writes);
    writing = false;
    const deliveries = writes * receivers.length;
    const alone = tokenRate ? await tokenRate() : null; // the same run's token rate, no delivery going on
    const started = process.hrtime.bigint();
    let deliveredAt = 0n;
    const delivering = probe.measure(() => deliverAll(workers, receivers, deliveries)).then(() => void (deliveredAt = process.hrtime.bigint()));
    const beside = tokenRate ? await tokenRate() : null;
    const tokenRunEnded = process.hrtime.bigint();
    await delivering;
    await streaming;
    return {
      writes,
      writesPerSecBaseline: round(rates.baseline, 0),
      writesPerSecWithEvents: round(rates.withEvents, 0),
      writeRatio: round(rates.withEvents / rates.baseline, 3),
      writeCost: rates.cost,
      writeCpuRatio: rates.cpuRatio,
      deliveries,
      deliveredPerSec: round(deliveries / (Number(deliveredAt - started) / 1e9), 0),
      deliveryCost: probe.per(deliveries),
      ...(await received(writer.get(DataSource), receivers, writes)),
      receiverConnections: receivers.reduce((n, r) => n + r.connections(), 0),
      syslogFrames: syslog.frames(),
      tokenRatio: alone && beside ? round(beside / alone, 3) : null,
      deliveriesOutlastedTokenRun: tokenRate ? deliveredAt >= tokenRunEnded : null,
      load: { start: round(loadAtStart, 1), end: round(loadavg()[0]!, 1), cores: cpus().length },
    };
  } finally {
    writing = false;
    await streaming.catch(() => undefined);
    for (const id of subscriptions) await writer.get(WebhookService).remove(tenantId, SYSTEM_ACTOR, id); // another run in this database starts without them
    for (const app of [writer, ...workers]) await app.close();
    for (const r of receivers) r.server.close();
    syslog.server.close();
    rmSync(certDir, { recursive: true, force: true });
  }
}

/**
 * Each worker runs passes with the production settings until every delivery arrived: back to back
 * while a pass sends, else again after an idle lane's poll interval (the scheduler's tick is longer).
 */
async function deliverAll(workers: INestApplicationContext[], receivers: BenchReceiver[], deliveries: number): Promise<void> {
  const done = () => receivers.reduce((n, r) => n + r.ids.length, 0) >= deliveries;
  await Promise.all(
    workers.map(async (worker) => {
      while (!done()) if ((await worker.get(WebhookDeliveryService).deliverDue({}, done)) === 0) await sleep(DEFAULT_WEBHOOK_DELIVERY.idlePollMs);
    }),
  );
}

/** Whether each receiver got each of its subscription's deliveries once, and in the order they were written. */
async function received(db: DataSource, receivers: BenchReceiver[], writes: number): Promise<{ exactlyOnce: boolean; inOrder: boolean }> {
  const pending: Array<{ n: number }> = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state <> 'delivered'`);
  let inOrder = true;
  for (const r of receivers) {
    const rows: Array<{ event_id: string }> = await db.query(
      `SELECT d.event_id FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE s.url = $1 ORDER BY d.transaction_id, d.seq`,
      [r.url],
    );
    inOrder &&= rows.length === r.ids.length && rows.every((row, i) => row.event_id === r.ids[i]);
  }
  return { exactlyOnce: pending[0]!.n === 0 && receivers.every((r) => r.ids.length === writes && new Set(r.ids).size === writes), inOrder };
}

/** One line with the three figures against their targets, and what a delivery cost. */
export function describeEventsOut(e: EventsOutFigures): string {
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const t = EVENTS_OUT_TARGETS;
  const c = e.deliveryCost;
  return (
    `${e.deliveredPerSec} deliveries/s on two workers (target ≥ ${t.deliveredPerSec}: ${verdict(e.deliveredPerSec >= t.deliveredPerSec)}), ` +
    `admin writes ${e.writeRatio}× without subscriptions (≥ ${t.writeRatio}: ${verdict(e.writeRatio >= t.writeRatio)}; by CPU ${e.writeCpuRatio}×), ` +
    `tokens ${e.tokenRatio ?? 'not measured'}${e.tokenRatio === null ? '' : `× (≥ ${t.tokenRatio}: ${verdict(e.tokenRatio >= t.tokenRatio)})`}; ` +
    `per delivery ${c.processCpuMs} ms CPU in the workers' process, ${c.databaseCpuMs} ms in Postgres, ${c.statements} statements; ` +
    `exactly once ${e.exactlyOnce}, in order ${e.inOrder}; load average ${e.load.start}→${e.load.end} on ${e.load.cores} cores` +
    (e.load.start > e.load.cores ? ' (a busy host: rates are low, the costs per delivery stand)' : '')
  );
}
