import { describe, expect, it } from 'vitest';
import { lifetimeMinutes } from './invitation-lifetime.js';

describe('invitation lifetime', () => {
  it('defaults to 168 hours; takes whole hours 1..720 or whole minutes 5..43200', () => {
    expect(lifetimeMinutes()).toBe(168 * 60);
    expect(lifetimeMinutes({ expiresInHours: 2 })).toBe(120);
    expect(lifetimeMinutes({ expiresInMinutes: 5 })).toBe(5);
    expect(lifetimeMinutes({ expiresInMinutes: 43_200 })).toBe(43_200);
  });

  it('refuses both at once, too short, too long and fractions', () => {
    for (const bad of [
      { expiresInHours: 1, expiresInMinutes: 30 },
      { expiresInMinutes: 4 },
      { expiresInMinutes: 43_201 },
      { expiresInMinutes: 7.5 },
      { expiresInHours: 0 },
      { expiresInHours: 721 },
      { expiresInHours: 1.5 },
    ]) {
      expect(() => lifetimeMinutes(bad), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: 'invitation_invalid_expiry' }));
    }
  });
});
