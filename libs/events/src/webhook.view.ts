import type { WebhookDelivery } from './webhook-delivery.entity.js';
import type { WebhookState, WebhookSubscription } from './webhook-subscription.entity.js';

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  state: WebhookState;
  /** Why it is failing or disabled. */
  stateReason: string | null;
  /** Until then deliveries carry a second signature made with the secret before the last rotation. */
  previousSecretValidUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The answer that creates or rotates a secret: the only one that ever holds it. */
export interface WebhookWithSecret extends WebhookView {
  secret: string;
}

export interface WebhookDeliveryView {
  id: string;
  /** The audit event's id: the `webhook-id` header of every attempt. */
  eventId: string;
  event: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastAttemptAt: string | null;
  /** What went wrong at the last attempt, in our words. */
  lastError: string | null;
  /** When a pending delivery is tried next (it may wait behind older ones of the subscription). */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function webhookView(row: WebhookSubscription): WebhookView {
  const rotating = row.previousSecretUntil && row.previousSecretUntil.getTime() > Date.now();
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    state: row.state,
    stateReason: row.stateReason,
    previousSecretValidUntil: rotating ? iso(row.previousSecretUntil) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function deliveryView(row: WebhookDelivery): WebhookDeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    event: row.eventType,
    state: row.state,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastAttemptAt: iso(row.lastAttemptAt),
    lastError: row.lastError,
    nextAttemptAt: row.state === 'pending' ? iso(row.nextAttemptAt) : null,
    deliveredAt: iso(row.deliveredAt),
    createdAt: row.createdAt.toISOString(),
  };
}
