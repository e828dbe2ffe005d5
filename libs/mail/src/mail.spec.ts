import { describe, expect, it } from 'vitest';
import { isSingleAddress } from './address.js';
import { DEFAULT_DELIVERY_SETTINGS, backoffMs } from './outbox-delivery.service.js';
import { activationEmail, escapeHtml, invitationEmail, linkFrom, secretExpiryEmail } from './templates.js';

describe('mail', () => {
  it('accepts exactly one plain address', () => {
    expect(isSingleAddress('a.b+c@example.com')).toBe(true);
    for (const bad of ['a@example.com\r\nBcc: x@example.com', 'a@example.com, b@example.com', 'a@example.com;b@example.com', 'A <a@example.com>', 'a b@example.com', '', 'a@', 5]) {
      expect(isSingleAddress(bad), String(bad)).toBe(false);
    }
  });

  it('escapes every value in HTML and builds links from the public URL', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const link = linkFrom('https://id.example.com/', 'invitations', 'tok_-1');
    expect(link).toBe('https://id.example.com/invitations/tok_-1');
    const mail = invitationEmail({ displayName: '<script>x</script>', sections: ['A & B'], link, expiresAt: new Date(0) });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('A &amp; B');
    expect(mail.text).toContain(link);
    expect(activationEmail({ displayName: 'x', username: 'u', link, expiresAt: new Date(0) }).template).toBe('activation');
    expect(secretExpiryEmail({ clientDisplayName: 'a\r\nBcc: x', clientId: 'c', secretHint: 'abc', secretDisplayName: 'd', expiresAt: new Date(0) }).subject).not.toMatch(/[\r\n]/);
  });

  it('backs off exponentially up to the cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, DEFAULT_DELIVERY_SETTINGS))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(DEFAULT_DELIVERY_SETTINGS.retryForMs).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(DEFAULT_DELIVERY_SETTINGS.leaseMs).toBeLessThanOrEqual(30_000);
    expect(backoffMs(30, DEFAULT_DELIVERY_SETTINGS)).toBe(DEFAULT_DELIVERY_SETTINGS.maxBackoffMs);
  });
});
