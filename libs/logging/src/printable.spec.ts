import { describe, expect, it } from 'vitest';
import { printable, printableLine } from './printable.js';

describe('printable', () => {
  it('replaces controls, invalid UTF-8, bidi overrides and lone surrogates, and caps the length', () => {
    const invalidUtf8 = Buffer.from([0x61, 0xff, 0xfe, 0x62]).toString('utf8');
    expect(printable(invalidUtf8)).toBe('a??b');
    expect(printable('a\r\nb\u0000c\u001b[31m')).toBe('a??b?c?[31m');
    expect(printable('x\u202Ey\u200Bz\uD800')).toBe('x?y?z?');
    expect(printable('é ü € 中文 ok')).toBe('é ü € 中文 ok');
    expect(printable('x'.repeat(150))).toBe(`${'x'.repeat(100)}…`);
    expect(printable('abcdef', 3)).toBe('abc…');
    expect(printableLine('line\nbreak')).toBe('line?break');
  });
});
