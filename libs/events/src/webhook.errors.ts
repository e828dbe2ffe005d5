export enum WebhookErrorCode {
  NotFound = 'webhook_not_found',
  DeliveryNotFound = 'webhook_delivery_not_found',
  /** The URL breaks a rule of SECURITY check 61 (the rule is in the message). */
  InvalidUrl = 'webhook_url_invalid',
  /** The event filter names events nobody writes (the known ones are listed). */
  UnknownEvents = 'webhook_events_unknown',
  /** Redelivery of a delivery that has not been tried yet. */
  NotRedeliverable = 'webhook_delivery_not_redeliverable',
}

export interface WebhookFieldError {
  field: string;
  message: string;
}

export class WebhookError extends Error {
  constructor(
    readonly code: WebhookErrorCode,
    message: string,
    readonly fields: WebhookFieldError[] = [],
    /** For `UnknownEvents`: every event a filter may name. */
    readonly knownEvents: readonly string[] = [],
  ) {
    super(message);
    this.name = 'WebhookError';
  }
}
