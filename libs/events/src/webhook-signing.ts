import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A fresh signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The Standard Webhooks headers of one attempt: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
 * for each secret (during a rotation the new one and the old one, space-separated), computed by
 * the `standardwebhooks` library that receivers verify with.
 */
export function signedHeaders(id: string, at: Date, body: string, secrets: readonly string[]): SignedHeaders {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
