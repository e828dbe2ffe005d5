import { Injectable, Logger } from '@nestjs/common';
import { auditEventView } from '@gatehouse/audit';
import { MetricsRegistry } from '@gatehouse/http';
import { OutboundError, outboundFetch } from '@gatehouse/outbound';
import { type AttemptResult, type ClaimedSubscription, type DueDelivery, WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { WebhookTrouble } from './webhook-trouble.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { signedHeaders } from './webhook-signing.js';
import { DEFAULT_RETRY, type RetrySettings, nextDelayMs } from './retry-schedule.js';

/** How the workers send webhooks; defaults are production's, tests shorten the waits. */
export interface WebhookDeliverySettings {
  retry: RetrySettings;
  /** Subscriptions one worker sends to at once (each one in order, one attempt in flight). */
  lanes: number;
  /** Deliveries of one subscription read and sent per claim. */
  batchSize: number;
  /** One attempt, connect to last byte (§13: 10 s). */
  timeoutMs: number;
  /** Bytes of an answer read at most (§13: 64 KB). */
  maxAnswerBytes: number;
  /** The claim on a subscription; a batch stops starting attempts well before it lapses. */
  leaseMs: number;
  /** While another lane still sends, an idle lane looks for due work this often. */
  idlePollMs: number;
}

export const DEFAULT_WEBHOOK_DELIVERY: WebhookDeliverySettings = {
  retry: DEFAULT_RETRY,
  lanes: 8,
  batchSize: 100,
  timeoutMs: 10_000,
  maxAnswerBytes: 64 * 1024,
  leaseMs: 60_000,
  idlePollMs: 250,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The workers' webhook sender: claims one subscription at a time per lane, sends its due events
 * in order (the next only after the previous was taken), records every attempt, retries with
 * backoff, gives up after 3 days (failing) and stops on 410 Gone (disabled). A slow endpoint
 * holds only its own lane: the others keep claiming other subscriptions.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger(WebhookDeliveryService.name);

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly secrets: WebhookSecrets,
    private readonly trouble: WebhookTrouble,
    private readonly metrics: MetricsRegistry,
  ) {}

  /** One pass: lanes claim and send until nothing is due and no lane is busy (or `stopping()`). */
  async deliverDue(overrides: Partial<WebhookDeliverySettings> = {}, stopping: () => boolean = () => false): Promise<number> {
    const settings = { ...DEFAULT_WEBHOOK_DELIVERY, ...overrides };
    let busy = 0;
    let sent = 0;
    const lane = async () => {
      while (!stopping()) {
        const claimed = await this.deliveries.claim(settings.leaseMs);
        if (!claimed) {
          if (busy === 0) return;
          await sleep(settings.idlePollMs);
          continue;
        }
        busy++;
        try {
          const delivered = await this.sendBatch(claimed, settings);
          sent += delivered;
        } finally {
          busy--;
        }
      }
    };
    await Promise.all(Array.from({ length: settings.lanes }, lane));
    return sent;
  }

  /** Sends the claimed subscription's due events in order; stops at the first that fails. */
  private async sendBatch(subscription: ClaimedSubscription, settings: WebhookDeliverySettings): Promise<number> {
    const done: AttemptResult[] = [];
    const stopAt = Date.now() + settings.leaseMs - 2 * settings.timeoutMs;
    try {
      const due = await this.deliveries.due(subscription.id, settings.batchSize);
      const events = new Map((await this.deliveries.events(subscription.tenantId, due.map((d) => d.eventId))).map((e) => [e.id, e]));
      const secrets = this.secrets.signingSecrets(subscription);
      for (const delivery of due) {
        const event = events.get(delivery.eventId);
        const body = JSON.stringify(event ? { type: event.action, timestamp: event.occurredAt.toISOString(), data: auditEventView(event) } : null);
        const result = await this.attempt(subscription.url, delivery, body, secrets, settings);
        if (result.status !== null && result.status >= 200 && result.status < 300) {
          done.push(result);
          this.metrics.webhookAttempts.add('delivered');
        } else {
          await this.deliveries.delivered(done.splice(0));
          await this.onFailure(subscription, delivery, result, settings);
          break;
        }
        if (Date.now() > stopAt) break;
      }
    } catch (error) {
      this.logger.error({ err: error, webhook: subscription.id }, 'webhook batch failed');
    } finally {
      await this.deliveries.delivered(done);
      await this.deliveries.release(subscription.id, done.length > 0);
    }
    return done.length;
  }

  private async attempt(url: string, delivery: DueDelivery, body: string, secrets: string[], settings: WebhookDeliverySettings): Promise<AttemptResult & { retryAfter?: string }> {
    const headers = { 'content-type': 'application/json', 'user-agent': 'Gatehouse-Webhooks/1', ...signedHeaders(delivery.eventId, new Date(), body, secrets) };
    try {
      const answer = await outboundFetch(
        { url, method: 'POST', headers, body, timeoutMs: settings.timeoutMs, maxBytes: settings.maxAnswerBytes, whenTooLarge: 'truncate', sameOriginRedirects: 0 },
        this.secrets.rules,
      );
      const ok = answer.status >= 200 && answer.status < 300;
      const error = ok ? null : answer.status >= 300 && answer.status < 400 ? `HTTP ${answer.status}: redirects are not followed` : `HTTP ${answer.status}`;
      const retryAfter = answer.headers['retry-after'];
      return { id: delivery.id, status: answer.status, error, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined };
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      return { id: delivery.id, status: null, error: error.rule };
    }
  }

  private async onFailure(subscription: ClaimedSubscription, delivery: DueDelivery, result: AttemptResult & { retryAfter?: string }, settings: WebhookDeliverySettings): Promise<void> {
    const expired = Date.now() - delivery.createdAt.getTime() >= settings.retry.giveUpAfterMs;
    this.metrics.webhookAttempts.add(result.status === 410 ? 'gone' : expired ? 'given_up' : 'failed');
    if (result.status === 410) return this.trouble.gone(subscription, delivery, result);
    if (expired) return this.trouble.givenUp(subscription, delivery, result);
    await this.deliveries.failed(result, nextDelayMs(delivery.attempts + 1, settings.retry, result.retryAfter), false);
  }
}
