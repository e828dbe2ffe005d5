import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

type Trust = (address: string, hop: number) => boolean;

const compiled = new WeakMap<readonly string[], Trust>();

/**
 * The client's address as Express' `req.ip` computes it under the same `TRUST_PROXY` setting:
 * the socket's peer, or, through trusted proxies only, the nearest untrusted `X-Forwarded-For`
 * entry. For requests served ahead of Express (the token endpoint's fast path); call it only where
 * the address is needed (it parses a header).
 */
export function sourceAddress(req: IncomingMessage | undefined, trustProxy: false | readonly string[]): string {
  if (!req) return 'unknown';
  if (trustProxy === false) return req.socket.remoteAddress ?? 'unknown';
  let trust = compiled.get(trustProxy);
  if (!trust) compiled.set(trustProxy, (trust = proxyaddr.compile([...trustProxy])));
  return proxyaddr(req, trust);
}
