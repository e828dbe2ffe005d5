import type { AuditStreamSettings, WebhookDeliverySettings } from '@gatehouse/events';
import type { DeliverySettings } from '@gatehouse/mail';
import type { ScheduleKey } from './schedules.js';

/** Tunables of the worker's jobs (intervals, batch sizes, retry policy); defaults are production's. */
export interface WorkerJobOptions {
  intervals?: Partial<Record<ScheduleKey, number>>;
  delivery?: Partial<DeliverySettings>;
  deliveryBatchSize?: number;
  sweepBatchSize?: number;
  /** Webhook sending: lanes, batch, timeout, retry schedule (tests use short waits). */
  webhooks?: Partial<WebhookDeliverySettings>;
  auditStream?: Partial<AuditStreamSettings>;
}

export const WORKER_JOB_OPTIONS = Symbol('WORKER_JOB_OPTIONS');
