import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { OutboundError, OutboundErrorCode } from './outbound.errors.js';
import type { OutboundRules } from './outbound-fetch.js';
import { allowsPrivate, parseOutboundUrl } from './outbound-url.js';

/** Whether an address may be called without an allow-list entry: public unicast only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address is judged as the IPv4 one
  return parsed.range() === 'unicast';
}

/**
 * Checks a URL as it is configured (a webhook endpoint, a SIEM sink): the static rules, then what
 * its host resolves to now. The connection is checked again at every call, so a host that later
 * resolves elsewhere is still refused then.
 */
export async function checkDestination(value: string, rules: OutboundRules): Promise<URL> {
  const url = parseOutboundUrl(value);
  if (allowsPrivate(rules.privateAllowed, url)) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  try {
    addresses = ipaddr.isValid(host) ? [{ address: host }] : await lookup(host, { all: true });
  } catch (error) {
    throw new OutboundError(OutboundErrorCode.Unreachable, value, (error as NodeJS.ErrnoException).code);
  }
  if (addresses.length === 0 || !addresses.every(({ address }) => isPublicAddress(address))) {
    throw new OutboundError(OutboundErrorCode.PrivateAddress, value, url.host);
  }
  return url;
}
