import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { readFileSync, mkdtempSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import { type AddressInfo, type Server as TcpServer, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService, ClientsModule } from '@gatehouse/clients';
import type { AppConfig } from '@gatehouse/config';
import { AuditStreamModule, AuditStreamService, EventsModule, WebhookDeliveryService, WebhookService } from '@gatehouse/events';
import { ensureDevCertificate } from '@gatehouse/http';
import { coreImports } from '@gatehouse/schema';

/** §13 in the bench: admin writes with two webhook subscriptions and syslog streaming on. */
export interface EventsOutFigures {
  writes: number;
  /** Admin writes per second without any subscription, then with two and syslog on. */
  writesPerSecBaseline: number;
  writesPerSecWithEvents: number;
  writeRatio: number;
  /** Webhook deliveries (two per write) per second on two workers, from the end of the writes. */
  deliveries: number;
  deliveredPerSec: number;
  /** Each receiver got every event once (no failures: no retries). */
  exactlyOnce: boolean;
  syslogFrames: number;
  /** Token rate while the workers deliver, against the same run's rate without them (null: not measured). */
  tokenRatio: number | null;
  /** Whether the deliveries went on for the whole token run (else the ratio covers some idle time too). */
  deliveriesOutlastedTokenRun: boolean | null;
}

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

@Module({})
class EventsOutModule {
  static register(config: AppConfig, app: string): DynamicModule {
    return {
      module: EventsOutModule,
      imports: [...coreImports(config, { app, poolSize: 8, logDestination: discard }), ClientsModule, EventsModule, AuditStreamModule],
    };
  }
}

const context = (config: AppConfig, app: string): Promise<INestApplicationContext> =>
  NestFactory.createApplicationContext(EventsOutModule.register(config, app), { logger: ['error'] });

/** A webhook endpoint that answers 204 and counts each event id. */
async function receiver(cert: { certFile: string; keyFile: string }): Promise<{ server: Server; url: string; ids: string[] }> {
  const ids: string[] = [];
  const server = createServer({ cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, ids };
}

/** A syslog TCP receiver counting octet-counted frames. */
async function syslogReceiver(): Promise<{ server: TcpServer; port: number; frames: () => number }> {
  let frames = 0;
  const server = createTcpServer((socket) => {
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      for (let match = /^(\d+) /.exec(buffered); match && buffered.length >= match[0].length + Number(match[1]); match = /^(\d+) /.exec(buffered)) {
        buffered = buffered.slice(match[0].length + Number(match[1]));
        frames++;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, frames: () => frames };
}

/** `writes` client creations, `concurrency` at a time; answers writes per second. */
async function adminWrites(app: INestApplicationContext, tenantId: string, writes: number, label: string, concurrency = 8): Promise<number> {
  const clients = app.get(ClientService);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < writes) await clients.create(tenantId, SYSTEM_ACTOR, { displayName: `${label} ${next++}` });
    }),
  );
  return writes / (Number(process.hrtime.bigint() - started) / 1e9);
}

/**
 * Admin writes without subscriptions, then with two (`client.*`) and syslog streaming on, while
 * `tokenRate` (when given) measures the token endpoint beside the two delivering workers.
 */
export async function measureEventsOut(
  base: AppConfig,
  tenantId: string,
  writes: number,
  tokenRate?: () => Promise<number>,
): Promise<EventsOutFigures> {
  const cert = ensureDevCertificate(mkdtempSync(join(tmpdir(), 'bench-hooks-')));
  const receivers = [await receiver(cert), await receiver(cert)];
  const syslog = await syslogReceiver();
  const config: AppConfig = {
    ...base,
    webhookPrivateTargets: receivers.map((r) => r.url),
    outboundCa: readFileSync(cert.certFile, 'utf8'),
    auditSyslogUrl: `tcp://127.0.0.1:${syslog.port}`,
  };
  const writer = await context(config, 'bench-events-writer');
  const workers = [await context(config, 'bench-events-worker-1'), await context(config, 'bench-events-worker-2')];
  try {
    const writesPerSecBaseline = await adminWrites(writer, tenantId, writes, 'Baseline');
    for (const r of receivers) await writer.get(WebhookService).create(tenantId, SYSTEM_ACTOR, { url: r.url, events: ['client.*'] });
    let writing = true;
    const streaming = (async () => {
      while (writing || syslog.frames() < writes) if ((await workers[0]!.get(AuditStreamService).streamDue()) === 0) await new Promise((r) => setTimeout(r, 50));
    })();
    const writesPerSecWithEvents = await adminWrites(writer, tenantId, writes, 'With events');
    writing = false;
    const deliveries = writes * receivers.length;
    const alone = tokenRate ? await tokenRate() : null; // the same run's token rate, no delivery going on
    const started = process.hrtime.bigint();
    let deliveredAt = 0n;
    const delivering = deliverAll(workers, receivers, deliveries).then(() => void (deliveredAt = process.hrtime.bigint()));
    const beside = tokenRate ? await tokenRate() : null;
    const tokenRunEnded = process.hrtime.bigint();
    await delivering;
    const seconds = Number(deliveredAt - started) / 1e9;
    const tokenRatio = alone && beside ? round(beside / alone, 3) : null;
    await streaming;
    const pending = await writer.get(DataSource).query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state <> 'delivered'`);
    return {
      writes,
      writesPerSecBaseline: round(writesPerSecBaseline, 0),
      writesPerSecWithEvents: round(writesPerSecWithEvents, 0),
      writeRatio: round(writesPerSecWithEvents / writesPerSecBaseline, 3),
      deliveries,
      deliveredPerSec: round(deliveries / seconds, 0),
      exactlyOnce: pending[0].n === 0 && receivers.every((r) => r.ids.length === writes && new Set(r.ids).size === writes),
      syslogFrames: syslog.frames(),
      tokenRatio,
      deliveriesOutlastedTokenRun: tokenRate ? deliveredAt >= tokenRunEnded : null,
    };
  } finally {
    for (const app of [writer, ...workers]) await app.close();
    for (const r of receivers) r.server.close();
    syslog.server.close();
  }
}

async function deliverAll(workers: INestApplicationContext[], receivers: Array<{ ids: string[] }>, deliveries: number): Promise<void> {
  const received = () => receivers.reduce((n, r) => n + r.ids.length, 0);
  while (received() < deliveries) {
    await Promise.all(workers.map((w) => w.get(WebhookDeliveryService).deliverDue({ idlePollMs: 10 })));
  }
}
