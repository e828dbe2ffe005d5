import { type RenderedEmail, oneLine, page } from './templates.js';

export interface WebhookTroubleMail {
  /** Where the webhook points (without its query string). */
  url: string;
  /** `failing`: a delivery was given up after 3 days of retries; `disabled`: the endpoint answered 410 Gone. */
  state: 'failing' | 'disabled';
  event: string;
}

/** Tells a tenant's Administrators that a webhook endpoint stopped taking its events. */
export function webhookTroubleEmail(input: WebhookTroubleMail): RenderedEmail {
  const what =
    input.state === 'disabled'
      ? `The endpoint answered 410 Gone, so Gatehouse disabled the webhook and sends it nothing more.`
      : `Gatehouse tried for 3 days to deliver a ${input.event} event and gave it up; the webhook is marked failing. Later events are still tried, and the webhook is active again as soon as one gets through.`;
  const next =
    input.state === 'disabled'
      ? 'If the endpoint should receive events again, fix it, then enable the webhook under Webhooks in the Gatehouse console; redeliver what it missed from its delivery log.'
      : 'Check the endpoint, then open the webhook under Webhooks in the Gatehouse console: its delivery log shows each attempt, and "Redeliver" sends a given-up event again.';
  const lines = [`Webhook ${input.url}`, what, next];
  return {
    template: 'webhook-trouble',
    subject: oneLine(input.state === 'disabled' ? `Webhook disabled: ${input.url}` : `Webhook failing: ${input.url}`),
    text: `${lines.join('\n\n')}\n`,
    html: page('Webhook delivery stopped', lines),
  };
}
