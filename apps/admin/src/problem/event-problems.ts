import { WebhookError, WebhookErrorCode } from '@gatehouse/events';
import { type Problem, problem } from './problem.js';

function unmapped(code: never): never {
  throw new Error(`unmapped error code ${String(code)}`);
}

export function webhookStatus(code: WebhookErrorCode): number {
  switch (code) {
    case WebhookErrorCode.NotFound:
    case WebhookErrorCode.DeliveryNotFound:
      return 404;
    case WebhookErrorCode.InvalidUrl:
    case WebhookErrorCode.UnknownEvents:
      return 400;
    case WebhookErrorCode.NotRedeliverable:
      return 409;
    default:
      return unmapped(code);
  }
}

/** The problem for an error of webhooks (§13); `undefined` for any other error. */
export function eventProblem(error: unknown): Problem | undefined {
  if (!(error instanceof WebhookError)) return undefined;
  const extra: Partial<Problem> = {};
  if (error.fields.length) extra.errors = error.fields;
  if (error.knownEvents.length) extra.knownEvents = error.knownEvents;
  return problem(webhookStatus(error.code), error.code, error.message, extra);
}
