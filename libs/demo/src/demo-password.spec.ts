import { describe, expect, it } from 'vitest';
import { checkPasswordPolicy } from '@gatehouse/accounts';
import { demoPassword } from './demo-staff.service.js';

describe('demo passwords', () => {
  it('are four groups of four unambiguous characters, new each time, long and rare enough for the policy', () => {
    const drawn = Array.from({ length: 50 }, demoPassword);
    for (const password of drawn) {
      expect(password).toMatch(/^[a-hjkmnp-z2-9]{4}(-[a-hjkmnp-z2-9]{4}){3}$/);
      // A draw may contain a context word (the username): the fill draws again then.
      expect(checkPasswordPolicy(password, { tenantSlug: 'default', username: 'nobody-at-all' })).toEqual({ ok: true });
    }
    expect(new Set(drawn).size).toBe(drawn.length);
  });
});
