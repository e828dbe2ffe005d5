import { describe, expect, it } from 'vitest';
import { CredentialPolicyError } from './credential-policy.errors.js';
import { policyFromInput } from './credential-policy.input.js';
import { type CredentialPolicy, DEFAULT_CREDENTIAL_POLICY, defaultSecretDays, newCredentialBreach, outsidePolicy } from './credential-policy.rules.js';

const DAY = 86_400_000;
const now = new Date('2026-11-28T10:00:00Z');
const policy: CredentialPolicy = {
  ...DEFAULT_CREDENTIAL_POLICY,
  maxSecretLifetimeDays: 90,
  maxCertificateLifetimeDays: 365,
  allowedCredentialKinds: ['secret', 'certificate'],
  effectiveFrom: new Date('2026-11-01T00:00:00Z'),
};
const secret = (days: number) => ({ kind: 'secret' as const, createdAt: now, expiresAt: new Date(now.getTime() + days * DAY) });

describe('the credential policy', () => {
  it('flags nothing while no policy was set', () => {
    expect(outsidePolicy(secret(730), DEFAULT_CREDENTIAL_POLICY)).toBeNull();
    expect(outsidePolicy({ kind: 'federated' }, DEFAULT_CREDENTIAL_POLICY)).toBeNull();
  });

  it('says which rule a credential breaks and why', () => {
    expect(outsidePolicy(secret(90), policy)).toBeNull();
    expect(outsidePolicy(secret(400), policy)).toMatchObject({ rule: 'maxSecretLifetimeDays', message: expect.stringContaining('at most 90 days') });
    expect(outsidePolicy({ kind: 'federated' }, policy)).toMatchObject({ rule: 'allowedCredentialKinds' });
    const twoYears = { kind: 'certificate' as const, notBefore: now, notAfter: new Date(now.getTime() + 730 * DAY) };
    expect(outsidePolicy(twoYears, policy)).toMatchObject({ rule: 'maxCertificateLifetimeDays' });
  });

  it('refuses new credentials only from effectiveFrom on, and caps the default secret lifetime then', () => {
    const later = { ...policy, effectiveFrom: new Date(now.getTime() + DAY) };
    expect(newCredentialBreach(secret(400), later, now)).toBeNull();
    expect(newCredentialBreach(secret(400), policy, now)).not.toBeNull();
    expect(defaultSecretDays(policy, 180, now)).toBe(90);
    expect(defaultSecretDays(later, 180, now)).toBe(180);
  });

  it('checks a PUT field by field and names the bad one', () => {
    const named = (input: object) => {
      try {
        policyFromInput(input as never, now);
        return null;
      } catch (error) {
        return (error as CredentialPolicyError).field;
      }
    };
    expect(named({ maxSecretLifetimeDays: 731 })).toBe('maxSecretLifetimeDays');
    expect(named({ maxSecretLifetimeDays: 0 })).toBe('maxSecretLifetimeDays');
    expect(named({ maxCertificateLifetimeDays: -1 })).toBe('maxCertificateLifetimeDays');
    expect(named({ allowedCredentialKinds: ['secret', 'password'] })).toBe('allowedCredentialKinds');
    expect(named({ allowedCredentialKinds: [] })).toBe('allowedCredentialKinds');
    expect(named({ effectiveFrom: '10000-01-01' })).toBe('effectiveFrom');
    expect(named({ staleCredentialDays: 0 })).toBe('staleCredentialDays');
    expect(policyFromInput({}, now)).toMatchObject({ maxSecretLifetimeDays: 730, effectiveFrom: now, staleCredentialDays: 90 });
  });
});
