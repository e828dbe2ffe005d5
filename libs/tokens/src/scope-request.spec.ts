import { describe, expect, it } from 'vitest';
import { parseScopeParameter } from './scope-request.js';
import { TokenRequestError } from './token-request.errors.js';

describe('parseScopeParameter', () => {
  it('answers a text seen before with the same, frozen request', () => {
    const first = parseScopeParameter('api://orders/Orders.Read api://orders/Orders.Write openid');
    expect(first).toEqual({ resource: 'api://orders', values: ['Orders.Read', 'Orders.Write'] });
    const again = parseScopeParameter('api://orders/Orders.Read api://orders/Orders.Write openid');
    expect(again).toEqual(first);
    expect(Object.isFrozen(again) && Object.isFrozen(again.values)).toBe(true);
  });

  it('refuses an invalid text every time it is sent, never from the memo', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => parseScopeParameter('api://a/x api://b/y')).toThrow(TokenRequestError);
      expect(() => parseScopeParameter('api://orders/.default api://orders/Orders.Read')).toThrow(/cannot be combined/);
      expect(() => parseScopeParameter('openid')).toThrow(/not valid/);
    }
  });

  it('keeps answering each text correctly past the bound of the memo (1,000 texts)', () => {
    for (let i = 0; i < 5_000; i++) expect(parseScopeParameter(`api://r${i}/.default`).resource).toBe(`api://r${i}`);
    expect(parseScopeParameter('api://r4999/.default')).toEqual({ resource: 'api://r4999', values: ['.default'] });
  });
});
