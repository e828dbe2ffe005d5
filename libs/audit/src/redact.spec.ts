import { describe, expect, it } from 'vitest';
import { REDACTED, redactDetails } from './redact.js';

describe('audit redaction', () => {
  it('redacts secret-like keys at any depth, in arrays too', () => {
    const out = redactDetails({
      secretText: 'S1',
      client_secret: 'S2',
      nested: { password: 'P1', deeper: [{ accessToken: 'T1', secret_hash: 'H1' }] },
      initialPassword: 'P2',
      passwordHash: 'H2',
      keep: 'visible',
      list: ['a', { Authorization: 'Bearer x' }],
    });
    const text = JSON.stringify(out);
    for (const value of ['S1', 'S2', 'P1', 'T1', 'H1', 'P2', 'H2', 'Bearer x']) expect(text).not.toContain(value);
    expect(out.keep).toBe('visible');
    expect((out.nested as Record<string, unknown>).password).toBe(REDACTED);
    expect(out.list).toEqual(['a', { Authorization: REDACTED }]);
  });

  it('keeps plain values and turns dates into ISO strings', () => {
    const when = new Date('2026-01-01T00:00:00Z');
    expect(redactDetails({ a: 1, b: null, c: when, d: ['x'] })).toEqual({ a: 1, b: null, c: when.toISOString(), d: ['x'] });
    expect(redactDetails(undefined)).toEqual({});
  });

  it('does not mistake harmless keys for secrets', () => {
    expect(redactDetails({ keyId: 'k', hint: 'abc', scopes: ['x'] })).toEqual({ keyId: 'k', hint: 'abc', scopes: ['x'] });
    const settings = { accessTokenVersion: 1, accessTokenLifetimeSeconds: 3600, token_endpoint: 'https://x/t' };
    expect(redactDetails(settings)).toEqual(settings);
    expect(redactDetails({ refreshToken: 'T', tokenHash: 'H' })).toEqual({ refreshToken: REDACTED, tokenHash: REDACTED });
    const policy = { maxSecretLifetimeDays: 90, allowedCredentialKinds: ['secret'], staleCredentialDays: 90, disableStaleCredentials: true, tokensPerHour: 5 };
    expect(redactDetails(policy)).toEqual(policy);
  });
});
