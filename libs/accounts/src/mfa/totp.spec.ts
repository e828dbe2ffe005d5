import { describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { normalizeRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import { base32Of, matchingStep, newTotpSeed, totpCode, totpUri } from './totp.js';

describe('TOTP (RFC 6238, SHA-1, 6 digits, 30 s)', () => {
  const seed = newTotpSeed();
  const at = Date.UTC(2026, 10, 28, 12, 0, 15); // 15 s into a step
  const step = Math.floor(at / 30_000);

  it('agrees with an authenticator app reading the base32 secret', () => {
    const app = new TOTP({ secret: Secret.fromBase32(base32Of(seed)), algorithm: 'SHA1', digits: 6, period: 30 });
    expect(app.generate({ timestamp: at })).toBe(totpCode(seed, at));
    expect(matchingStep(seed, app.generate({ timestamp: at }), at)).toBe(step);
  });

  it('accepts one step of skew either way and no more', () => {
    expect(matchingStep(seed, totpCode(seed, at - 30_000), at)).toBe(step - 1);
    expect(matchingStep(seed, totpCode(seed, at + 30_000), at)).toBe(step + 1);
    const far = [totpCode(seed, at - 60_000), totpCode(seed, at + 60_000)];
    const near = [-1, 0, 1].map((n) => totpCode(seed, at + n * 30_000));
    for (const code of far.filter((c) => !near.includes(c))) expect(matchingStep(seed, code, at)).toBeNull();
  });

  it('refuses what is not six digits', () => {
    expect(matchingStep(seed, ` ${totpCode(seed, at)}`, at)).toBeNull();
    expect(matchingStep(seed, '12345', at)).toBeNull();
  });

  it('builds the otpauth URI with issuer, username, SHA1, 6 digits and 30 s', () => {
    const uri = totpUri(seed, 'Gatehouse (acme)', 'ada');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Gatehouse%20\(acme\):ada\?/);
    expect(uri).toContain(`secret=${base32Of(seed)}`);
    expect(uri).toContain('algorithm=SHA1&digits=6&period=30');
  });
});

describe('recovery codes', () => {
  it('makes ten distinct codes read off paper and normalizes what is typed', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
    expect(normalizeRecoveryCode(` ${codes[0]!.toLowerCase().replace('-', ' ')} `)).toBe(codes[0]!.replace('-', ''));
    expect(normalizeRecoveryCode('123456')).toBeNull();
    expect(normalizeRecoveryCode('OOOOO-IIIII')).toBeNull();
  });
});
