import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { TokenEndpoint } from './token.endpoint.js';

/** `POST /{tenant}/oauth2/v2.0/token` (or v1's `/oauth2/token`) exactly as clients send it; anything else goes to Express. */
const TOKEN_PATH = /^\/([^/?#]{1,200})\/oauth2\/(v2\.0\/)?token(?:\?|$)/;
const OFFERED_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The token endpoint is the hot path, benchmarked against a bare `http` server that only signs.
 * Its requests are served straight from Node's `request` event, ahead of Express: no router, no
 * helmet, no per-request access log (pino-http). What stays is everything the endpoint owes: the
 * same {@link TokenEndpoint} (the Express route uses it too, for paths this pattern leaves out),
 * the security log line of every refusal, `x-request-id`, and the headers that matter on a JSON
 * answer. Successful issuances are not logged one by one: {@link TokenEndpoint} counts them
 * (`gatehouse_tokens_issued_total`, one increment) and refusals by reason; no timer per request.
 */
export function installTokenFastPath(app: NestExpressApplication): void {
  const server = app.getHttpServer() as Server;
  const endpoint = app.get(TokenEndpoint);
  const listeners = server.listeners('request') as Listener[];
  if (listeners.length !== 1)
    throw new Error(`expected Express as the only request listener, found ${listeners.length}`);
  const express = listeners[0]!;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = req.method === 'POST' ? TOKEN_PATH.exec(req.url ?? '') : null;
    const tenant = match ? decodeSegment(match[1]!) : undefined;
    if (tenant === undefined) return express(req, res);
    const offered = req.headers['x-request-id'];
    const id = typeof offered === 'string' && OFFERED_REQUEST_ID.test(offered) ? offered : randomUUID();
    (req as IncomingMessage & { id?: string }).id = id;
    endpoint.handle(req, res, tenant, id, match![2] === undefined);
  });
}

/** The tenant segment, percent-decoded; a segment without `%` (a GUID or a slug) is its own decoding. */
function decodeSegment(segment: string): string | undefined {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
