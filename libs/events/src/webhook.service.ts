import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type Page, type PageRequest, decodeCursor, pageSize, toPage } from '@gatehouse/database';
import { KNOWN_EVENTS, TEST_EVENT, unknownFilterEntries } from './event-catalogue.js';
import { WebhookError, WebhookErrorCode } from './webhook.errors.js';
import { WebhookRepository } from './webhook.repository.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { newSigningSecret } from './webhook-signing.js';
import type { WebhookSubscription } from './webhook-subscription.entity.js';
import { type WebhookDeliveryView, type WebhookView, type WebhookWithSecret, deliveryView, webhookView } from './webhook.view.js';

export interface WebhookInput {
  url: string;
  events: string[];
  description?: string | null;
}

export interface WebhookChanges extends Partial<WebhookInput> {
  /** `false` stops deliveries; `true` starts them again (after a 410 Gone or a failing period). */
  enabled?: boolean;
}

/** How long the secret before a rotation still signs deliveries. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Where a URL points, for the audit log: no query string or fragment (some endpoints carry a token there). */
const auditedUrl = (url: string) => url.replace(/[?#].*$/s, '');

/**
 * Webhook subscriptions of a tenant (§13), the use cases behind `/admin/v1/webhooks` and the
 * console's Webhooks page (both: Tenant.Manage). Every change is audited in its transaction.
 */
@Injectable()
export class WebhookService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly webhooks: WebhookRepository,
    private readonly secrets: WebhookSecrets,
    private readonly audit: AuditService,
  ) {}

  async create(tenantId: string, actor: Actor, input: WebhookInput): Promise<WebhookWithSecret> {
    const url = await this.secrets.checkUrl(input.url);
    const events = checkedEvents(input.events);
    const id = randomUUID();
    const secret = newSigningSecret();
    const row = await this.dataSource.transaction(async (em) => {
      const saved = await this.webhooks.insert(em, {
        id, tenantId, url, events, description: input.description ?? null, secretSealed: this.secrets.seal(id, secret),
      });
      await this.record(em, tenantId, actor, 'webhook.created', id, { url: auditedUrl(url), events, description: saved.description });
      return saved;
    });
    return { ...webhookView(row), secret };
  }

  async list(tenantId: string, request: PageRequest): Promise<Page<WebhookView>> {
    const size = pageSize(request.limit);
    const rows = await this.webhooks.list(tenantId, decodeCursor(request.cursor), size + 1);
    return toPage(rows, size, (row) => ({ at: row.createdAt, id: row.id }), webhookView);
  }

  async get(tenantId: string, id: string): Promise<WebhookView> {
    return webhookView(await this.found(tenantId, id));
  }

  async update(tenantId: string, actor: Actor, id: string, changes: WebhookChanges): Promise<WebhookView> {
    const url = changes.url === undefined ? undefined : await this.secrets.checkUrl(changes.url);
    const events = changes.events === undefined ? undefined : checkedEvents(changes.events);
    return this.change(tenantId, id, async (em, row) => {
      const next: Partial<WebhookSubscription> = {};
      if (url !== undefined) next.url = url;
      if (events !== undefined) next.events = events;
      if (changes.description !== undefined) next.description = changes.description;
      if (changes.enabled === false && row.state !== 'disabled') Object.assign(next, { state: 'disabled', stateReason: 'Disabled by an Administrator.' });
      if (changes.enabled === true && row.state !== 'active') Object.assign(next, { state: 'active', stateReason: null });
      await this.webhooks.update(em, id, next);
      const audited = { ...next, ...(next.url ? { url: auditedUrl(next.url) } : {}) };
      await this.record(em, tenantId, actor, 'webhook.updated', id, { changes: audited });
    });
  }

  async remove(tenantId: string, actor: Actor, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const row = await this.locked(em, tenantId, id);
      await this.webhooks.delete(em, tenantId, id);
      await this.record(em, tenantId, actor, 'webhook.deleted', id, { url: auditedUrl(row.url), events: row.events });
    });
  }

  /** A new secret, shown once; the old one keeps signing (a second `v1,` signature) for 24 hours. */
  async rotateSecret(tenantId: string, actor: Actor, id: string): Promise<WebhookWithSecret> {
    const secret = newSigningSecret();
    const view = await this.change(tenantId, id, async (em, row) => {
      const until = new Date(Date.now() + ROTATION_OVERLAP_MS);
      await this.webhooks.update(em, id, { secretSealed: this.secrets.seal(id, secret), previousSecretSealed: row.secretSealed, previousSecretUntil: until });
      await this.record(em, tenantId, actor, 'webhook.secret_rotated', id, { rotationEndsAt: until.toISOString() });
    });
    return { ...view, secret };
  }

  /** Sends a `webhook.tested` event to this subscription only (behind what already waits for it). */
  async test(tenantId: string, actor: Actor, id: string): Promise<WebhookDeliveryView> {
    return this.dataSource.transaction(async (em) => {
      const row = await this.locked(em, tenantId, id);
      const eventId = await this.record(em, tenantId, actor, TEST_EVENT, id, { url: auditedUrl(row.url), test: true });
      const deliveryId = await this.webhooks.queue(em, { tenantId, subscriptionId: id, eventId, eventType: TEST_EVENT });
      return deliveryView((await this.webhooks.findDelivery(em, tenantId, id, deliveryId))!);
    });
  }

  async deliveries(tenantId: string, id: string, request: PageRequest): Promise<Page<WebhookDeliveryView>> {
    await this.found(tenantId, id);
    const size = pageSize(request.limit);
    const after = decodeCursor(request.cursor);
    const rows = await this.webhooks.deliveries(tenantId, id, after?.id, size + 1);
    return toPage(rows, size, (row) => ({ at: row.createdAt, id: row.id }), deliveryView);
  }

  /** Sends a delivered or given-up event again, with the same `webhook-id`, as a new delivery. */
  async redeliver(tenantId: string, actor: Actor, id: string, deliveryId: string): Promise<WebhookDeliveryView> {
    return this.dataSource.transaction(async (em) => {
      await this.locked(em, tenantId, id);
      const earlier = await this.webhooks.findDelivery(em, tenantId, id, deliveryId);
      if (!earlier) throw new WebhookError(WebhookErrorCode.DeliveryNotFound, 'No such delivery of this webhook.');
      if (earlier.state === 'pending') {
        throw new WebhookError(WebhookErrorCode.NotRedeliverable, 'This delivery is still being tried; it can be sent again once it was delivered or given up.');
      }
      const again = await this.webhooks.queue(em, { tenantId, subscriptionId: id, eventId: earlier.eventId, eventType: earlier.eventType });
      await this.record(em, tenantId, actor, 'webhook.redelivered', id, { deliveryId: again, eventId: earlier.eventId, event: earlier.eventType });
      return deliveryView((await this.webhooks.findDelivery(em, tenantId, id, again))!);
    });
  }

  private async change(tenantId: string, id: string, work: (em: EntityManager, row: WebhookSubscription) => Promise<void>): Promise<WebhookView> {
    return this.dataSource.transaction(async (em) => {
      await work(em, await this.locked(em, tenantId, id));
      return webhookView((await this.webhooks.find(tenantId, id, em))!);
    });
  }

  private async found(tenantId: string, id: string): Promise<WebhookSubscription> {
    const row = isUuid(id) ? await this.webhooks.find(tenantId, id) : null;
    if (!row) throw new WebhookError(WebhookErrorCode.NotFound, 'No such webhook in this tenant.');
    return row;
  }

  private async locked(em: EntityManager, tenantId: string, id: string): Promise<WebhookSubscription> {
    const row = isUuid(id) ? await this.webhooks.findForUpdate(em, tenantId, id) : null;
    if (!row) throw new WebhookError(WebhookErrorCode.NotFound, 'No such webhook in this tenant.');
    return row;
  }

  private record(em: EntityManager, tenantId: string, actor: Actor, action: string, id: string, details: Record<string, unknown>): Promise<string> {
    return this.audit.recordEvent(em, { tenantId, actor, action, targetType: 'webhook', targetId: id, details });
  }
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** The filter without repeats; one that names no known event is a 400 listing the events there are. */
function checkedEvents(events: string[]): string[] {
  const unique = [...new Set(events.map((event) => event.trim()))];
  const unknown = unknownFilterEntries(unique);
  if (unique.length === 0 || unknown.length > 0) {
    const named = unknown.length ? unknown.join(', ') : 'nothing';
    throw new WebhookError(
      WebhookErrorCode.UnknownEvents,
      `The event filter names no known event: ${named}. Name events exactly, by prefix (client.secret.*) or * for all.`,
      (unknown.length ? unknown : ['']).map((entry) => ({ field: 'events', message: `no known event matches "${entry}"` })),
      KNOWN_EVENTS,
    );
  }
  return unique;
}
