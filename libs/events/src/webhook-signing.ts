import { type KeyObject, createHmac, createSecretKey, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A fresh signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * A secret's HMAC key, as the `standardwebhooks` library reads it: the base64 after `whsec_`,
 * decoded; made a key object once, since an HMAC keyed by a buffer costs several times more.
 */
export function signingKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64'));
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The Standard Webhooks headers of one attempt: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
 * for each key (during a rotation the new one and the old one, space-separated). The HMAC is
 * Node's; the `standardwebhooks` library, which receivers verify with, checks it in the tests.
 */
export function signedHeaders(id: string, at: Date, body: string, keys: readonly KeyObject[]): SignedHeaders {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signed = `${id}.${timestamp}.${body}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': keys.map((key) => `v1,${createHmac('sha256', key).update(signed).digest('base64')}`).join(' '),
  };
}
