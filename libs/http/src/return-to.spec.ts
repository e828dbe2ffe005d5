import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to.js';

describe('safeReturnTo', () => {
  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'http://localhost:80@evil.example',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' /docs',
    '/\t/evil.example',
    '/\n/evil.example',
    'data:text/html,x',
    '',
    undefined,
    ['/docs'],
  ])('refuses %s', (value) => {
    expect(safeReturnTo(value, '/')).toBe('/');
  });

  it('keeps same-origin paths with their query', () => {
    expect(safeReturnTo('/invitations/abc?x=1')).toBe('/invitations/abc?x=1');
    expect(safeReturnTo('/docs/a-b')).toBe('/docs/a-b');
    expect(safeReturnTo('/login@evil')).toBe('/login@evil');
  });
});
