import { describe, expect, it } from 'vitest';
import { PasswordRejection, checkConfirmation, checkPasswordPolicy, commonPasswords } from './password-policy.js';

const context = { tenantSlug: 'acme', username: 'alice' };
const reason = (password: string) => {
  const verdict = checkPasswordPolicy(password, context);
  return verdict.ok ? 'ok' : verdict.reason;
};

describe('password policy', () => {
  it('ships a list of about a thousand common passwords', () => {
    expect(commonPasswords().size).toBeGreaterThanOrEqual(1000);
    expect(commonPasswords().has('password')).toBe(true);
  });

  it('counts length in code points, 15 to 128', () => {
    expect(reason('short pass')).toBe(PasswordRejection.TooShort);
    expect(reason('🦊🦊🦊🦊🦊🦊🦊 🦊🦊🦊🦊🦊🦊🦊')).toBe('ok'); // 15 code points, 30 UTF-16 units
    expect(reason('🦊'.repeat(14))).toBe(PasswordRejection.TooShort);
    expect(reason('x'.repeat(12) + 'qzv'.repeat(39))).toBe(PasswordRejection.TooLong);
    expect(reason('vq'.repeat(64))).toBe('ok');
  });

  it('has no composition rules', () => {
    expect(reason('lowercase only but long')).toBe('ok');
  });

  it('refuses common passwords, their repetitions and digit suffixes', () => {
    expect(reason('passwordpassword')).toBe(PasswordRejection.Common);
    expect(reason('PasswordPassword123!')).toBe(PasswordRejection.Common);
    expect(reason('qwertyuiopasdfghjkl')).toBe(PasswordRejection.Common);
    expect(reason('123456789012345')).not.toBe('ok');
  });

  it('refuses context words with the reason', () => {
    const verdict = checkPasswordPolicy('my long alice secret', context);
    expect(verdict).toMatchObject({ ok: false, reason: PasswordRejection.ContextWord });
    expect(!verdict.ok && verdict.message).toContain('alice');
    expect(reason('acme rocket sled pilot')).toBe(PasswordRejection.ContextWord);
    expect(reason('GateHouse keeper rules')).toBe(PasswordRejection.ContextWord);
  });

  it('checks the confirmation exactly', () => {
    expect(checkConfirmation('a', 'a')).toEqual({ ok: true });
    expect(checkConfirmation('a', 'a ')).toMatchObject({ ok: false, reason: PasswordRejection.Mismatch });
  });
});
