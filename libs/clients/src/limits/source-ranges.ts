import ipaddr from 'ipaddr.js';

/** At most this many ranges per client (Entra's named locations hold up to 2,000; a client needs few). */
export const MAX_SOURCE_RANGES = 200;

/**
 * One CIDR (or a single address, taken as /32 or /128) in canonical form — the network address,
 * `10.1.2.3/8` → `10.0.0.0/8` — or null when it does not parse. IPv4 must be four decimal parts
 * (ipaddr.js would take `10.1` as 10.0.0.1).
 */
export function canonicalRange(text: string): string | null {
  const value = text.trim();
  if (value.length === 0 || value.length > 64) return null;
  const slash = value.indexOf('/');
  const address = slash < 0 ? value : value.slice(0, slash);
  const range = slash < 0 ? `${value}/${address.includes(':') ? 128 : 32}` : value;
  if (!address.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(address)) return null;
  if (slash >= 0 && !/^\d{1,3}$/.test(value.slice(slash + 1))) return null;
  try {
    const [parsed, bits] = ipaddr.parseCIDR(range);
    const network = parsed.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(range) : ipaddr.IPv6.networkAddressFromCIDR(range);
    return `${network.toString()}/${bits}`;
  } catch {
    return null;
  }
}

/** The canonical ranges, duplicates dropped, in the order given; the texts that do not parse. */
export function canonicalRanges(texts: readonly string[]): { ranges: string[]; invalid: string[] } {
  const ranges: string[] = [];
  const invalid: string[] = [];
  for (const text of texts) {
    const range = typeof text === 'string' ? canonicalRange(text) : null;
    if (range === null) invalid.push(String(text));
    else if (!ranges.includes(range)) ranges.push(range);
  }
  return { ranges, invalid };
}
