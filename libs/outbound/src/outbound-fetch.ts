import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { rootCertificates } from 'node:tls';
import { RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { OutboundError, OutboundErrorCode } from './outbound.errors.js';
import { allowsPrivate, parseOutboundUrl } from './outbound-url.js';

/** Where a kind of outbound call may go: one per purpose (issuers, webhooks, SIEM sinks). */
export interface OutboundRules {
  /** URLs whose origin may resolve to private, loopback or link-local addresses. */
  privateAllowed: readonly string[];
  /** PEM certificates trusted beside the system's (an in-cluster issuer's CA, a test CA). */
  extraCa?: string;
}

export interface OutboundRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, from connecting to the last byte read. */
  timeoutMs: number;
  /** Bytes of the answer read at most. */
  maxBytes: number;
  /** `error`: a larger answer fails with `too_large`; `truncate`: the first `maxBytes` are kept. */
  whenTooLarge?: 'error' | 'truncate';
  /** Redirects followed within the same origin (never to another host); 0 answers the 3xx as is. */
  sameOriginRedirects?: number;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

interface Agents {
  filtered: Agent;
  open: Agent;
}
const agentsByRules = new WeakMap<OutboundRules, Agents>();

function agentsFor(rules: OutboundRules): Agents {
  let agents = agentsByRules.get(rules);
  if (!agents) {
    const options = { keepAlive: true, maxSockets: 16, ...(rules.extraCa ? { ca: [...rootCertificates, rules.extraCa] } : {}) };
    agents = { filtered: new RequestFilteringHttpsAgent(options), open: new Agent(options) };
    agentsByRules.set(rules, agents);
  }
  return agents;
}


/**
 * A request to a URL that a user configured (SECURITY check 61): https only, no credentials in
 * the URL, the connection refused after DNS when the address is private unless the rules allow
 * that origin (the check sits in the agent's lookup, so a rebinding DNS answer is caught too),
 * bounded in time and size, redirects only within the origin.
 */
export async function outboundFetch(req: OutboundRequest, rules: OutboundRules): Promise<OutboundResponse> {
  let url = parseOutboundUrl(req.url);
  const deadline = Date.now() + req.timeoutMs;
  for (let redirects = 0; ; redirects++) {
    const response = await exchange(url, req, rules, deadline);
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || !location || !req.sameOriginRedirects) return response;
    if (redirects >= req.sameOriginRedirects) throw new OutboundError(OutboundErrorCode.TooManyRedirects, req.url);
    const next = new URL(location, url);
    if (next.origin !== url.origin) throw new OutboundError(OutboundErrorCode.RedirectElsewhere, req.url, next.host);
    url = next;
  }
}

function exchange(url: URL, req: OutboundRequest, rules: OutboundRules, deadline: number): Promise<OutboundResponse> {
  const agents = agentsFor(rules);
  const agent = allowsPrivate(rules.privateAllowed, url) ? agents.open : agents.filtered;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const remaining = Math.max(1, deadline - Date.now());
    const outgoing = request(url, { method: req.method ?? 'GET', headers: req.headers, agent });
    const timer = setTimeout(
      () => outgoing.destroy(new OutboundError(OutboundErrorCode.Timeout, url.href, `${req.timeoutMs} ms`)),
      remaining,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(asOutboundError(error, url));
    };
    outgoing.on('error', fail);
    outgoing.on('response', (incoming) => {
      readBounded(incoming, req).then(
        (result) => {
          clearTimeout(timer);
          if (result.truncated) outgoing.destroy();
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, ...result });
        },
        (error: Error) => {
          outgoing.destroy();
          fail(error);
        },
      );
    });
    outgoing.end(req.body);
  });
}

function readBounded(incoming: IncomingMessage, req: OutboundRequest): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    incoming.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (size + chunk.length > req.maxBytes) {
        settled = true;
        if (req.whenTooLarge === 'truncate') {
          chunks.push(chunk.subarray(0, req.maxBytes - size));
          resolve({ body: Buffer.concat(chunks), truncated: true });
        } else {
          reject(new OutboundError(OutboundErrorCode.TooLarge, req.url, `more than ${req.maxBytes} bytes`));
        }
        incoming.destroy();
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
    });
    incoming.on('end', () => {
      if (!settled) resolve({ body: Buffer.concat(chunks), truncated: false });
      settled = true;
    });
    incoming.on('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
  });
}

function asOutboundError(error: Error, url: URL): OutboundError {
  if (error instanceof OutboundError) return error;
  if (/is not allowed/.test(error.message)) return new OutboundError(OutboundErrorCode.PrivateAddress, url.href, url.host);
  const code = (error as NodeJS.ErrnoException).code;
  return new OutboundError(OutboundErrorCode.Unreachable, url.href, code ?? error.message);
}
