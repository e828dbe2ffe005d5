import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { LabeledTally, Tally, exposeLabeledTally, exposeTally } from './tally.js';

/** Injection token: the name of the app a module runs in (identity, admin, worker). */
export const APP_NAME = Symbol('APP_NAME');

export interface OutboxFigures {
  /** Mails not yet sent nor abandoned (queued, failed awaiting a retry, sending). */
  depth: number;
  /** Age in seconds of the oldest of them; 0 when there are none. */
  oldestAgeSeconds: number;
}

/**
 * The Prometheus registry of one process, served only on the management listener. Under
 * `npm start` the three apps share it (the HTTP histogram carries an `app` label); tests that
 * build apps on their own get one each. Domain figures are {@link Tally}s: counting costs an
 * increment, prom-client reads them when scraped.
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by app, route and status (the token endpoint is counted apart)',
    labelNames: ['app', 'method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly tokensIssued = new Tally();
  /** By the refusal's code (invalid_secret, unknown_client, invalid_scope, …). */
  readonly tokensRefused = new LabeledTally();
  readonly mailsSent = new Tally();
  /** By kind: unreachable (no SMTP connection), deferred (4xx), rejected (5xx, abandoned). */
  readonly mailsFailed = new LabeledTally();
  /** By result: succeeded, failed, throttled. */
  readonly logins = new LabeledTally();
  /** By scope: account (a lock of 15 minutes or more), source (an address blocked). */
  readonly lockouts = new LabeledTally();
  /** Failed client authentications at the token endpoint, by reason (invalid_secret, unknown_client, …). */
  readonly clientAuthFailures = new LabeledTally();
  readonly cacheHits = new Tally();
  readonly cacheMisses = new Tally();
  readonly notifyReconnects = new Tally();
  /** Webhook attempts, by result: delivered, failed (tried again later), given_up, gone. */
  readonly webhookAttempts = new LabeledTally();
  /** Audit events handed to a streaming sink, by sink (syslog, hec). */
  readonly auditStreamed = new LabeledTally();
  private outbox: (() => Promise<OutboxFigures>) | undefined;
  private auditStreamLag: (() => Promise<Map<string, number>>) | undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const r = this.registry;
    exposeTally(r, 'gatehouse_tokens_issued_total', 'Access tokens issued', this.tokensIssued);
    exposeLabeledTally(
      r,
      'gatehouse_tokens_refused_total',
      'Token requests refused, by reason',
      'reason',
      this.tokensRefused,
    );
    exposeLabeledTally(
      r,
      'gatehouse_client_authentication_failures_total',
      'Failed client authentications at the token endpoint, by reason',
      'reason',
      this.clientAuthFailures,
    );
    exposeTally(r, 'gatehouse_mails_sent_total', 'Mails handed to SMTP', this.mailsSent);
    exposeLabeledTally(
      r,
      'gatehouse_mails_failed_total',
      'Failed delivery attempts, by kind',
      'kind',
      this.mailsFailed,
    );
    exposeLabeledTally(r, 'gatehouse_logins_total', 'Web UI logins, by result', 'result', this.logins);
    exposeLabeledTally(
      r,
      'gatehouse_lockouts_total',
      'Accounts locked and source addresses blocked',
      'scope',
      this.lockouts,
    );
    exposeTally(r, 'gatehouse_cache_hits_total', 'Token endpoint cache reads answered from memory', this.cacheHits);
    exposeTally(r, 'gatehouse_cache_misses_total', 'Token endpoint cache reads that had to load', this.cacheMisses);
    exposeTally(
      r,
      'gatehouse_notify_reconnects_total',
      'LISTEN/NOTIFY connections re-made after a loss',
      this.notifyReconnects,
    );
    exposeLabeledTally(r, 'gatehouse_webhook_attempts_total', 'Webhook delivery attempts, by result', 'result', this.webhookAttempts);
    exposeLabeledTally(r, 'gatehouse_audit_streamed_total', 'Audit events sent to a streaming sink, by sink', 'sink', this.auditStreamed);
    this.exposeRatio();
    this.exposeOutbox();
    this.exposeAuditStreamLag();
  }

  /** The worker tells how to measure each audit sink's lag (seconds behind the log); read at scrape time. */
  measureAuditStreamLagWith(measure: () => Promise<Map<string, number>>): void {
    this.auditStreamLag ??= measure;
  }

  private exposeAuditStreamLag(): void {
    const measure = () => this.auditStreamLag?.().catch(() => undefined);
    new Gauge({
      name: 'gatehouse_audit_stream_lag_seconds',
      help: 'Age of the oldest audit event a streaming sink has not been sent yet (0: caught up)',
      labelNames: ['sink'],
      registers: [this.registry],
      async collect() {
        const lags = await measure();
        this.reset();
        for (const [sink, seconds] of lags ?? []) this.set({ sink }, seconds);
      },
    });
  }

  /** The worker tells how to measure the outbox; read at scrape time (one indexed query). */
  measureOutboxWith(measure: () => Promise<OutboxFigures>): void {
    this.outbox ??= measure;
  }

  private exposeRatio(): void {
    const { cacheHits, cacheMisses } = this;
    new Gauge({
      name: 'gatehouse_cache_hit_ratio',
      help: 'Share of token endpoint cache reads answered from memory since start',
      registers: [this.registry],
      collect() {
        const total = cacheHits.count + cacheMisses.count;
        this.set(total === 0 ? 0 : cacheHits.count / total);
      },
    });
  }

  private exposeOutbox(): void {
    const figures = async (): Promise<OutboxFigures | undefined> => this.outbox?.().catch(() => undefined);
    let pending: Promise<OutboxFigures | undefined> | undefined;
    const once = () => (pending ??= figures().finally(() => setTimeout(() => (pending = undefined), 0)));
    new Gauge({
      name: 'gatehouse_outbox_depth',
      help: 'Mails waiting to be sent (queued, failed awaiting a retry, sending)',
      registers: [this.registry],
      async collect() {
        const f = await once();
        if (f) this.set(f.depth);
      },
    });
    new Gauge({
      name: 'gatehouse_outbox_oldest_age_seconds',
      help: 'Age of the oldest mail waiting to be sent',
      registers: [this.registry],
      async collect() {
        const f = await once();
        if (f) this.set(f.oldestAgeSeconds);
      },
    });
  }
}

/** Times every Express request of an app (the token fast path counts tokens instead). */
@Injectable()
export class MetricsMiddleware implements NestMiddleware {
  constructor(
    private readonly metrics: MetricsRegistry,
    @Inject(APP_NAME) private readonly app: string,
  ) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const end = this.metrics.httpDuration.startTimer();
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      end({ app: this.app, method: req.method, route: `${req.baseUrl}${route}`, status: String(res.statusCode) });
    });
    next();
  }
}
