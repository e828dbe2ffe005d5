import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { KeyEncryptor } from '@gatehouse/crypto';
import { MetricsRegistry } from '@gatehouse/http';
import { EmailRepository, type ClaimedEmail } from './email.repository.js';
import { bodyContext } from './mail-outbox.js';
import { MailTransport, SMTP_CONNECTIONS } from './mail-transport.js';
import { classifySmtpFailure } from './smtp-failure.js';

export interface DeliverySettings {
  /** How long transient failures are retried, from the first failure (MAIL_RETRY_HOURS). */
  retryForMs: number;
  /** Backoff after the n-th failed attempt: baseBackoffMs · 2^(n-1), capped at maxBackoffMs. */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** The claim on a mail being sent (OUTBOX_LEASE_SECONDS); renewed every third of it while the batch runs. */
  leaseMs: number;
}

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  retryForMs: 24 * 60 * 60 * 1000,
  baseBackoffMs: 30_000,
  maxBackoffMs: 30 * 60 * 1000,
  leaseMs: 20_000,
};

export interface DeliveryResult {
  claimed: number;
  sent: number;
  failed: number;
}

export function backoffMs(attempts: number, settings: DeliverySettings): number {
  return Math.min(settings.baseBackoffMs * 2 ** Math.max(attempts - 1, 0), settings.maxBackoffMs);
}

/**
 * Delivers the outbox: claims due rows with SKIP LOCKED (so replicas never share a row) under a
 * short lease that this worker renews while it works, sends outside any transaction, then marks
 * each sent or failed. At-least-once: a worker killed between a send and its mark leaves that
 * mail to be sent again once the lease lapses — at most the {@link SMTP_CONNECTIONS} mails it
 * had in flight. A worker that could not renew in time (stalled longer than the lease) skips
 * the mails it no longer holds.
 */
@Injectable()
export class OutboxDeliveryService {
  private readonly logger = new Logger(OutboxDeliveryService.name);
  private readonly defaults: DeliverySettings;

  constructor(
    private readonly emails: EmailRepository,
    private readonly transport: MailTransport,
    private readonly encryptor: KeyEncryptor,
    private readonly metrics: MetricsRegistry,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.defaults = {
      ...DEFAULT_DELIVERY_SETTINGS,
      retryForMs: config.mailRetryHours * 3_600_000,
      leaseMs: config.outboxLeaseSeconds * 1000,
    };
    metrics.measureOutboxWith(() => this.emails.figures());
  }

  /**
   * Claims and sends up to `limit` due mails, as many at a time as the SMTP pool has connections;
   * `overrides` tune retries (the worker's options, tests).
   */
  async deliverDue(limit = 50, overrides: Partial<DeliverySettings> = {}): Promise<DeliveryResult> {
    const settings = { ...this.defaults, ...overrides };
    const claimed = await this.emails.claimDue(limit, settings.leaseMs);
    const result: DeliveryResult = { claimed: claimed.length, sent: 0, failed: 0 };
    const held = new Set(claimed.map((email) => email.id));
    const renewal = setInterval(() => void this.renew(held, settings.leaseMs), Math.max(settings.leaseMs / 3, 50));
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) {
        const email = claimed[next++]!;
        if (!held.has(email.id)) continue;
        const sent = await this.deliver(email, settings);
        held.delete(email.id);
        if (sent) result.sent++;
        else result.failed++;
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(SMTP_CONNECTIONS, claimed.length) }, lane));
    } finally {
      clearInterval(renewal);
    }
    return result;
  }

  /**
   * When mail waits because SMTP could not be reached, asks the server whether it answers again
   * (connect, EHLO, QUIT) and, if it does, makes that mail due at once. Cheap; run every few seconds.
   */
  async probeAndWake(): Promise<number> {
    if (!(await this.emails.hasUnreachableWaiting())) return 0;
    if (!(await this.transport.reachable())) return 0;
    const woken = await this.emails.wakeUnreachable();
    if (woken) this.logger.log({ woken }, 'SMTP answers again; mail waiting for it is due now');
    return woken;
  }

  private async renew(held: Set<string>, leaseMs: number): Promise<void> {
    const asked = [...held];
    try {
      const still = new Set(await this.emails.renewLease(asked, leaseMs));
      for (const id of asked) if (!still.has(id)) held.delete(id);
    } catch (error) {
      this.logger.warn({ error: (error as Error).message }, 'could not renew the outbox lease');
    }
  }

  private async deliver(email: ClaimedEmail, settings: DeliverySettings): Promise<boolean> {
    try {
      await this.transport.send({
        id: email.id,
        to: email.toAddress,
        subject: email.subject,
        text: this.encryptor.decrypt(email.textBody, bodyContext(email.id, 'text')).toString('utf8'),
        html: this.encryptor.decrypt(email.htmlBody, bodyContext(email.id, 'html')).toString('utf8'),
      });
    } catch (error) {
      const failure = classifySmtpFailure(error);
      const status = await this.emails.markFailed(
        email.id,
        failure,
        backoffMs(email.attempts, settings),
        settings.retryForMs,
      );
      this.metrics.mailsFailed.add(failure.kind);
      this.logger.warn(
        { emailId: email.id, attempts: email.attempts, kind: failure.kind, status, error: failure.message },
        'mail delivery failed',
      );
      return false;
    }
    await this.emails.markSent(email.id);
    this.metrics.mailsSent.count++;
    return true;
  }
}
