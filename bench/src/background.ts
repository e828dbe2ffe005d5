import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Writable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@gatehouse/config';
import { InvitationSweepService, InvitationsModule } from '@gatehouse/invitations';
import { MailModule, MailOutbox, OutboxDeliveryService } from '@gatehouse/mail';
import { coreImports } from '@gatehouse/schema';
import { type GcPauses, watchGcPauses } from './gc-pauses.js';
import type { PacedResult } from './paced-load.js';
import type { PacedTraffic } from './server-windows.js';

export interface SweepFigures {
  rows: number;
  overdue: number;
  seconds: number;
}

export interface OutboxFigures {
  emails: number;
  perSec: number;
  exactlyOnce: boolean;
}

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });

@Module({})
class BackgroundModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: BackgroundModule,
      imports: [...coreImports(config, { app: 'bench-worker', poolSize: 4, logDestination: discard }), InvitationsModule, MailModule],
    };
  }
}

function context(config: AppConfig): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(BackgroundModule.register(config), { logger: ['error'] });
}

function round(n: number, digits: number): number {
  return Math.round(n * 10 ** digits) / 10 ** digits;
}

/**
 * `rows` pending invitations of which `overdue` expired an hour ago; times one full run of the
 * real sweep (InvitationSweepService.sweepExpired) and checks it expired exactly the overdue ones.
 */
export async function measureSweep(config: AppConfig, tenantId: string, rows: number, overdue: number): Promise<SweepFigures> {
  const app = await context(config);
  try {
    const dataSource = app.get(DataSource);
    const [user] = (await dataSource.query('SELECT id FROM users WHERE tenant_id = $1 LIMIT 1', [tenantId])) as Array<{ id: string }>;
    if (!user) throw new Error('no user to invite');
    const chunk = 100_000;
    for (let from = 1; from <= rows; from += chunk) {
      const to = Math.min(rows, from + chunk - 1);
      await dataSource.query(
        `INSERT INTO invitations (tenant_id, user_id, section_slugs, token_hash, status, expires_at)
         SELECT $1, $2, ARRAY['getting-started'], decode(md5('bench-' || i), 'hex'), 'pending',
                CASE WHEN i <= $5 THEN now() - interval '1 hour' ELSE now() + interval '7 days' END
           FROM generate_series($3::int, $4::int) AS i`,
        [tenantId, user.id, from, to, overdue],
      );
    }
    await dataSource.query('VACUUM ANALYZE invitations');
    return await sweepAndCheck(app, rows, overdue);
  } finally {
    await app.close();
  }
}

export interface SweepOptions {
  batchSize?: number;
  /** The sweep's rest after a batch, as a fraction of the batch's time (default the product's). */
  restRatio?: number;
  /** Awaited between the sweep and its check (a scenario stops the traffic it measures beside the sweep). */
  beforeCheck?: () => Promise<void>;
}

/** One timed run of the real sweep over invitations already in the database; checks it expired exactly the overdue ones. */
export async function timeSweep(
  config: AppConfig,
  rows: number,
  overdue: number,
  options: SweepOptions = {},
): Promise<SweepFigures> {
  const app = await context(config);
  try {
    return await sweepAndCheck(app, rows, overdue, options);
  } finally {
    await app.close();
  }
}

async function sweepAndCheck(
  app: INestApplicationContext,
  rows: number,
  overdue: number,
  options: SweepOptions = {},
): Promise<SweepFigures> {
  const dataSource = app.get(DataSource);
  const [{ at }] = (await dataSource.query('SELECT clock_timestamp() AS at')) as Array<{ at: Date }>;
  const started = process.hrtime.bigint();
  const result = await app.get(InvitationSweepService).sweepExpired(options.batchSize, options.restRatio);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await options.beforeCheck?.(); // the check reads a million audit events: not while traffic is measured
  const [counts] = (await dataSource.query(
    `SELECT count(*)::int AS events, count(DISTINCT e.target_id)::int AS targets,
            count(*) FILTER (WHERE i.status = 'pending' AND i.expires_at <= now())::int AS overdue,
            (SELECT count(*)::int FROM invitations WHERE status <> 'pending') AS written
       FROM audit_events e LEFT JOIN invitations i ON i.id::text = e.target_id
      WHERE e.action = 'invitation.expired' AND e.occurred_at >= $1`,
    [at],
  )) as Array<{ events: number; targets: number; overdue: number; written: number }>;
  const c = counts!;
  if (result.expired !== overdue || c.events !== overdue || c.targets !== overdue || c.overdue !== overdue || c.written !== 0) {
    throw new Error(
      `sweep expired ${result.expired} (audited ${c.events}, ${c.targets} invitations, ${c.overdue} of them overdue; ${c.written} rows not pending), expected ${overdue}`,
    );
  }
  return { rows, overdue, seconds: round(seconds, 3) };
}

/**
 * The real sweep beside token traffic, one continuous stream, as a worker that is already running
 * sweeps: the worker's context (its modules, its connections) starts before the traffic does, the
 * sweep's first statement follows the traffic's lead-in (so no connection of the traffic is opened
 * during the sweep), and the traffic stops when the sweep's work is done, before its check (a count
 * over every invitation) — so the traffic's figures cover the sweep from its first statement to its
 * last, and nothing of the worker's start.
 */
export async function sweepUnderTraffic(
  config: AppConfig,
  sweep: { rows: number; overdue: number } & Omit<SweepOptions, 'beforeCheck'>,
  startTraffic: () => PacedTraffic,
): Promise<{ sweep: SweepFigures; traffic: PacedResult; orchestratorGc: GcPauses }> {
  const app = await context(config);
  try {
    // This process shares core 0 with the traffic's generator: it collects now, once the worker's
    // context is up, and reports its collections from here to the sweep's end.
    const gc = watchGcPauses();
    const traffic = startTraffic();
    traffic.result.catch(() => undefined); // awaited below; a sweep that fails first must not leave it unhandled
    try {
      await traffic.measuring;
      const figures = await sweepAndCheck(app, sweep.rows, sweep.overdue, {
        ...sweep,
        beforeCheck: async () => {
          traffic.stop();
          await traffic.result;
        },
      });
      return { sweep: figures, traffic: await traffic.result, orchestratorGc: gc.stop() };
    } finally {
      traffic.stop();
    }
  } finally {
    await app.close();
  }
}

/** An SMTP sink on 127.0.0.1 that counts every message by its Message-ID. */
async function smtpSink(): Promise<{ port: number; received: Map<string, number>; close(): Promise<void> }> {
  const received = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const id = /^Message-ID:\s*<([^>@]+)@gatehouse>/im.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? 'missing';
        received.set(id, (received.get(id) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Queues `emails` mails through the real outbox (MailOutbox.enqueue, in transactions of 500), then
 * lets one worker loop of OutboxDeliveryService.deliverDue send them to a local SMTP sink; times the
 * delivery and checks that every queued mail arrived exactly once and is marked sent.
 */
export async function measureOutbox(baseConfig: AppConfig, tenantId: string, emails: number): Promise<OutboxFigures> {
  const sink = await smtpSink();
  const app = await context({ ...baseConfig, smtpUrl: `smtp://127.0.0.1:${sink.port}` });
  try {
    const dataSource = app.get(DataSource);
    const outbox = app.get(MailOutbox);
    const ids: string[] = [];
    for (let from = 0; from < emails; from += 500) {
      await dataSource.transaction(async (em) => {
        for (let i = from; i < Math.min(emails, from + 500); i++) {
          ids.push(
            await outbox.enqueue(em, {
              tenantId,
              to: `user${i}@example.com`,
              mail: {
                template: 'invitation',
                subject: `Your invitation #${i}`,
                text: `Hello,\n\nopen https://gatehouse.example/invite/${i} to read the documentation.\n`,
                html: `<p>Hello,</p><p>open <a href="https://gatehouse.example/invite/${i}">the documentation</a>.</p>`,
              },
            }),
          );
        }
      });
    }
    const delivery = app.get(OutboxDeliveryService);
    const started = process.hrtime.bigint();
    let sent = 0;
    for (;;) {
      const result = await delivery.deliverDue(50);
      sent += result.sent;
      if (result.claimed === 0) break;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const [row] = (await dataSource.query(`SELECT count(*)::int AS n FROM emails WHERE status = 'sent'`)) as Array<{ n: number }>;
    const exactlyOnce =
      sent === emails && row!.n === emails && sink.received.size === emails && ids.every((id) => sink.received.get(id) === 1);
    return { emails, perSec: round(emails / seconds, 0), exactlyOnce };
  } finally {
    await app.close();
    await sink.close();
  }
}
