import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { MetricsRegistry } from '@gatehouse/http';
import { TokenEndpoint } from './token.endpoint.js';

/** `POST /{tenant}/oauth2/v2.0/token` (or v1's `/oauth2/token`) exactly as clients send it; anything else goes to Express. */
const TOKEN_PATH = /^\/([^/?#]{1,200})\/oauth2\/(v2\.0\/)?token(?:\?|$)/;
const ROUTE = '/:tenant/oauth2/v2.0/token';
const OFFERED_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The token endpoint is the hot path, benchmarked against a bare `http` server that only signs.
 * Its requests are served straight from Node's `request` event, ahead of Express: no router, no
 * helmet, no per-request access log (pino-http). What stays is everything the endpoint owes: the
 * same {@link TokenEndpoint} (the Express route uses it too, for paths this pattern leaves out),
 * the security log line of every refusal, `x-request-id`, the duration histogram of `/metrics`,
 * and the headers that matter on a JSON answer. Successful issuances are not logged one by one;
 * they are counted in `http_request_duration_seconds{route="/:tenant/oauth2/v2.0/token"}`.
 */
export function installTokenFastPath(app: NestExpressApplication): void {
  const server = app.getHttpServer() as Server;
  const endpoint = app.get(TokenEndpoint);
  const { httpDuration } = app.get(MetricsRegistry);
  const listeners = server.listeners('request') as Listener[];
  if (listeners.length !== 1)
    throw new Error(`expected Express as the only request listener, found ${listeners.length}`);
  const express = listeners[0]!;
  // One label set per status code, made once: observing then costs no object per request.
  const labelsByStatus = new Map<number, { method: string; route: string; status: string }>();
  const labelsOf = (status: number) => {
    let labels = labelsByStatus.get(status);
    if (!labels) labelsByStatus.set(status, (labels = { method: 'POST', route: ROUTE, status: String(status) }));
    return labels;
  };
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = req.method === 'POST' ? TOKEN_PATH.exec(req.url ?? '') : null;
    const tenant = match ? decodeSegment(match[1]!) : undefined;
    if (tenant === undefined) return express(req, res);
    const started = performance.now();
    const offered = req.headers['x-request-id'];
    const id = typeof offered === 'string' && OFFERED_REQUEST_ID.test(offered) ? offered : randomUUID();
    (req as IncomingMessage & { id?: string }).id = id;
    res.once('finish', () => httpDuration.observe(labelsOf(res.statusCode), (performance.now() - started) / 1000));
    endpoint.handle(req, res, tenant, id, match![2] === undefined);
  });
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
