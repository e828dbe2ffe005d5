import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signedHeaders, signingKey } from './webhook-signing.js';

describe('webhook signatures (Standard Webhooks)', () => {
  const id = '0190a3b2-7c1d-7e4f-8a9b-0c1d2e3f4a5b';
  const at = new Date('2026-05-04T10:20:30.456Z');
  const body = JSON.stringify({ type: 'client.created', timestamp: at.toISOString(), data: { displayName: 'Zoë’s “client” ✓' } });

  it('signs as the standardwebhooks library does, and that library verifies it', () => {
    const secret = newSigningSecret();
    const headers = signedHeaders(id, at, body, [signingKey(secret)]);
    expect(headers['webhook-timestamp']).toBe('1777890030');
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(id, at, body));
    const verifier = new Webhook(secret);
    // verify() also checks the timestamp against the clock: sign the same body now.
    const now = signedHeaders(id, new Date(), body, [signingKey(secret)]);
    expect(verifier.verify(body, { ...now })).toEqual(JSON.parse(body));
  });

  it('during a rotation signs with both keys; either secret verifies, a third does not', () => {
    const [current, previous, other] = [newSigningSecret(), newSigningSecret(), newSigningSecret()];
    const headers = signedHeaders(id, new Date(), body, [signingKey(current), signingKey(previous)]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, { ...headers })).toBeTruthy();
    expect(new Webhook(previous).verify(body, { ...headers })).toBeTruthy();
    expect(() => new Webhook(other).verify(body, { ...headers })).toThrow();
  });

  it('reads a secret without its prefix as the library does', () => {
    const secret = newSigningSecret();
    expect(signingKey(secret.slice('whsec_'.length)).export()).toEqual(signingKey(secret).export());
    expect(signingKey(secret).symmetricKeySize).toBe(32);
  });
});
