import { Injectable, Logger } from '@nestjs/common';
import { KeyEncryptor } from '@gatehouse/crypto';
import { EmailRepository, type ClaimedEmail } from './email.repository.js';
import { bodyContext } from './mail-outbox.js';
import { MailTransport, SMTP_CONNECTIONS } from './mail-transport.js';

export interface DeliverySettings {
  /** Attempts before a mail is abandoned. */
  maxAttempts: number;
  /** Backoff after the n-th failed attempt: baseBackoffMs · 2^(n-1), capped at maxBackoffMs. */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** How long a claim lasts: a worker that dies mid-send releases its mails after this. */
  leaseMs: number;
}

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  maxAttempts: 5,
  baseBackoffMs: 30_000,
  maxBackoffMs: 60 * 60 * 1000,
  leaseMs: 5 * 60 * 1000,
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
 * Delivers the outbox: claims due rows with SKIP LOCKED (so replicas never share a row), sends
 * outside any transaction, then marks each sent or failed. At-least-once: a worker dying between
 * the send and the mark re-sends that one message after the lease, at most `maxAttempts` times.
 */
@Injectable()
export class OutboxDeliveryService {
  private readonly logger = new Logger(OutboxDeliveryService.name);

  constructor(
    private readonly emails: EmailRepository,
    private readonly transport: MailTransport,
    private readonly encryptor: KeyEncryptor,
  ) {}

  /**
   * Claims and sends up to `limit` due mails, as many at a time as the SMTP pool has connections;
   * `overrides` tune retries (the worker's options, tests).
   */
  async deliverDue(limit = 50, overrides: Partial<DeliverySettings> = {}): Promise<DeliveryResult> {
    const settings = { ...DEFAULT_DELIVERY_SETTINGS, ...overrides };
    const claimed = await this.emails.claimDue(limit, settings.leaseMs);
    const result: DeliveryResult = { claimed: claimed.length, sent: 0, failed: 0 };
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) {
        const email = claimed[next++]!;
        if (await this.deliver(email, settings)) result.sent++;
        else result.failed++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(SMTP_CONNECTIONS, claimed.length) }, lane));
    return result;
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
      const message = error instanceof Error ? error.message : String(error);
      const delay = backoffMs(email.attempts, settings);
      await this.emails.markFailed(email.id, message, delay, settings.maxAttempts);
      this.logger.warn({ emailId: email.id, attempts: email.attempts, error: message }, 'mail delivery failed');
      return false;
    }
    await this.emails.markSent(email.id);
    return true;
  }
}
