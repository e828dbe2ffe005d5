import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { auditEventView } from '@gatehouse/audit';
import { type AppConfig, APP_CONFIG } from '@gatehouse/config';
import { MetricsRegistry } from '@gatehouse/http';
import { type AuditSink, HecSink, type StreamedEvent, SyslogSink } from './audit-sinks.js';
import { AuditStreamRepository } from './audit-stream.repository.js';

/** How the workers stream the audit log; tests shorten the waits. */
export interface AuditStreamSettings {
  /** Events read and sent per batch. */
  batchSize: number;
  /** The claim on a sink's cursor; a pass stops sending well before it lapses. */
  leaseMs: number;
  /** After a failed batch the sink rests this long, doubled per failure, up to `maxRestMs`. */
  restMs: number;
  maxRestMs: number;
}

export const DEFAULT_AUDIT_STREAM: AuditStreamSettings = { batchSize: 500, leaseMs: 60_000, restMs: 1_000, maxRestMs: 60_000 };

/**
 * Streams every audit event to the configured SIEM sinks (`AUDIT_SYSLOG_URL`, `AUDIT_HEC_URL`):
 * a cursor per sink over the log, claimed by one worker at a time, advanced only after a batch
 * was handed over, so an event is sent at least once, in (transaction, id) order. A sink that is
 * down only falls behind (its lag is the metric `gatehouse_audit_stream_lag_seconds`): the
 * changes that write the events never wait for it.
 */
@Injectable()
export class AuditStreamService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuditStreamService.name);
  private readonly sinks: AuditSink[] = [];
  private readonly resting = new Map<string, { failures: number; until: number }>();

  constructor(
    private readonly cursors: AuditStreamRepository,
    private readonly metrics: MetricsRegistry,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    if (config.auditSyslogUrl) this.sinks.push(new SyslogSink(new URL(config.auditSyslogUrl), config.outboundCa));
    if (config.auditHecUrl && config.auditHecToken) this.sinks.push(new HecSink(config.auditHecUrl, config.auditHecToken, config.outboundCa));
    const names = this.sinks.map((sink) => sink.name);
    if (names.length) metrics.measureAuditStreamLagWith(() => this.cursors.lags(names));
  }

  /** Every event written from the worker's first start with a sink on is streamed: the cursors begin now. */
  async onApplicationBootstrap(): Promise<void> {
    for (const sink of this.sinks) await this.cursors.ensureCursor(sink.name);
  }

  onApplicationShutdown(): void {
    for (const sink of this.sinks) sink.close();
  }

  /** One pass over every sink (each on its own): send what is due; returns the events sent. */
  async streamDue(overrides: Partial<AuditStreamSettings> = {}, stopping: () => boolean = () => false): Promise<number> {
    const settings = { ...DEFAULT_AUDIT_STREAM, ...overrides };
    const sent = await Promise.all(this.sinks.map((sink) => this.stream(sink, settings, stopping)));
    return sent.reduce((sum, n) => sum + n, 0);
  }

  private async stream(sink: AuditSink, settings: AuditStreamSettings, stopping: () => boolean): Promise<number> {
    if ((this.resting.get(sink.name)?.until ?? 0) > Date.now()) return 0;
    let position = await this.cursors.claim(sink.name, settings.leaseMs);
    if (!position) return 0;
    const stopAt = Date.now() + settings.leaseMs / 2;
    let sent = 0;
    try {
      while (!stopping() && Date.now() < stopAt) {
        const rows = await this.cursors.after(position, settings.batchSize);
        if (!rows.length) break;
        await sink.send(rows.map((row): StreamedEvent => ({ ...auditEventView(row), tenantId: row.tenantId })));
        const last = rows[rows.length - 1]!;
        position = { transactionId: last.transactionId!, eventId: last.id };
        await this.cursors.advance(sink.name, position, rows.length);
        this.metrics.auditStreamed.add(sink.name, rows.length);
        sent += rows.length;
      }
      this.resting.delete(sink.name);
    } catch (error) {
      this.rest(sink, settings, error);
    } finally {
      await this.cursors.release(sink.name);
    }
    return sent;
  }

  private rest(sink: AuditSink, settings: AuditStreamSettings, error: unknown): void {
    sink.close();
    const failures = (this.resting.get(sink.name)?.failures ?? 0) + 1;
    const restMs = Math.min(settings.restMs * 2 ** (failures - 1), settings.maxRestMs);
    this.resting.set(sink.name, { failures, until: Date.now() + restMs });
    this.logger.warn({ sink: sink.name, failures, restMs, err: error }, 'audit streaming failed; the sink falls behind and is tried again');
  }
}
