import { describe, expect, it } from 'vitest';
import { SourceRangeMatcher, parseIpv4, sourceRangeMatcher } from './source-range-matcher.js';

describe('source ranges', () => {
  const matcher = new SourceRangeMatcher(['203.0.113.0/24', '10.0.0.0/8', '198.51.100.7/32', '2001:db8::/32']);

  it('admits addresses inside a range, IPv4, IPv4-mapped IPv6 and IPv6', () => {
    expect(matcher.admits('203.0.113.200')).toBe(true);
    expect(matcher.admits('10.255.0.1')).toBe(true);
    expect(matcher.admits('198.51.100.7')).toBe(true);
    expect(matcher.admits('::ffff:203.0.113.9')).toBe(true);
    expect(matcher.admits('2001:db8:1::5')).toBe(true);
  });

  it('refuses everything else, and what is not an address', () => {
    expect(matcher.admits('203.0.114.1')).toBe(false);
    expect(matcher.admits('198.51.100.8')).toBe(false);
    expect(matcher.admits('2001:db9::1')).toBe(false);
    expect(matcher.admits('unknown')).toBe(false);
    expect(matcher.admits('1.2.3')).toBe(false);
    expect(matcher.admits('256.1.1.1')).toBe(false);
  });

  it('takes 0.0.0.0/0 as every IPv4 address', () => {
    expect(new SourceRangeMatcher(['0.0.0.0/0']).admits('192.0.2.1')).toBe(true);
  });

  it('parses dotted quads only', () => {
    expect(parseIpv4('192.0.2.1')).toBe(0xc0000201);
    expect(parseIpv4('192.0.2.')).toBe(-1);
    expect(parseIpv4('1.2.3.4.5')).toBe(-1);
    expect(parseIpv4('1234.1.1.1')).toBe(-1);
  });

  it('shares one matcher between clients with the same list, none without ranges', () => {
    expect(sourceRangeMatcher(['10.0.0.0/8'])).toBe(sourceRangeMatcher(['10.0.0.0/8']));
    expect(sourceRangeMatcher(null)).toBeNull();
    expect(sourceRangeMatcher([])).toBeNull();
  });
});

describe('source ranges, the address admitted last', () => {
  it('admits it again at once, and still refuses others', () => {
    const matcher = new SourceRangeMatcher(['192.0.2.0/24']);
    expect(matcher.admits('192.0.2.1')).toBe(true);
    expect(matcher.admits('192.0.2.1')).toBe(true);
    expect(matcher.admits('198.51.100.1')).toBe(false);
    expect(matcher.admits('192.0.2.1')).toBe(true);
  });
});
