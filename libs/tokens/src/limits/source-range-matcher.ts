import ipaddr from 'ipaddr.js';

/**
 * A client's allowed source ranges, parsed once when its snapshot is read (then cached with it):
 * IPv4 ranges as (network, mask) integer pairs in one typed array, IPv6 ones as ipaddr.js ranges.
 * A match on the hot path is a parse of the address (IPv4 by hand) and a scan of integer
 * comparisons, or one string comparison when the address is the one admitted last.
 */
export class SourceRangeMatcher {
  private readonly v4: Uint32Array;
  private readonly v6: Array<[ipaddr.IPv6, number]>;
  /**
   * The last address admitted: a client on a kept-alive connection presents the very same string
   * (the socket's), so its next request is one comparison. Refusals are not remembered.
   */
  private lastAdmitted: string | null = null;

  constructor(readonly ranges: readonly string[]) {
    const v4: number[] = [];
    this.v6 = [];
    for (const text of ranges) {
      let parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
      try {
        parsed = ipaddr.parseCIDR(text);
      } catch {
        continue; // stored ranges were checked when written; one that no longer parses admits nothing
      }
      const [address, bits] = parsed;
      if (address.kind() === 'ipv4') {
        const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
        v4.push((ipv4Number((address as ipaddr.IPv4).octets) & mask) >>> 0, mask);
      } else {
        this.v6.push([address as ipaddr.IPv6, bits]);
      }
    }
    this.v4 = Uint32Array.from(v4);
  }

  /** Whether the address (as proxy-addr gives it: `203.0.113.7`, `::ffff:203.0.113.7`, `2001:db8::1`) is inside a range. */
  admits(address: string): boolean {
    if (address === this.lastAdmitted) return true;
    if (!this.scan(address)) return false;
    this.lastAdmitted = address;
    return true;
  }

  private scan(address: string): boolean {
    const v4 = parseIpv4(address.startsWith('::ffff:') ? address.slice(7) : address);
    if (v4 >= 0) {
      const ranges = this.v4;
      for (let i = 0; i < ranges.length; i += 2) if (((v4 & ranges[i + 1]!) >>> 0) === ranges[i]) return true;
      return false;
    }
    if (this.v6.length === 0 || !ipaddr.IPv6.isValid(address)) return false;
    const parsed = ipaddr.IPv6.parse(address);
    for (const range of this.v6) if (parsed.match(range)) return true;
    return false;
  }
}

function ipv4Number(octets: number[]): number {
  return ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
}

/** A dotted-quad IPv4 address as an unsigned integer, or -1. */
export function parseIpv4(text: string): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || ++dots > 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 3) {
      part = part * 10 + (c - 48);
      digits++;
      if (part > 255) return -1;
    } else {
      return -1;
    }
  }
  if (dots !== 3 || digits === 0) return -1;
  return value * 256 + part;
}

/** Matchers by their ranges' text: clients with the same list (often all of a partner's) share one. */
const shared = new Map<string, SourceRangeMatcher>();

/** The matcher of a stored list (canonical CIDRs), or null when the client may call from anywhere. */
export function sourceRangeMatcher(ranges: readonly string[] | null): SourceRangeMatcher | null {
  if (!ranges || ranges.length === 0) return null;
  const key = ranges.join(',');
  const known = shared.get(key);
  if (known) return known;
  const matcher = new SourceRangeMatcher(ranges);
  if (shared.size < 10_000) shared.set(key, matcher);
  return matcher;
}
