import { type Server, createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { MetricsRegistry } from '@gatehouse/http';
import { TokenWarmUp } from '@gatehouse/tokens';
import type { Listener } from './token-fast-path.js';

const CONNECTIONS = 8;

/**
 * Sends the app `requests` token requests before it serves, through its own request listener (the
 * fast path, the endpoint, the grant, signing) on a loopback port of its own, for a tenant and
 * client that exist in memory only ({@link TokenWarmUp}). A fresh process runs its first requests
 * in V8's interpreter: measured (BENCHMARKS.md), a replica that starts under half its peak rate
 * had a p99 of 247–664 ms over its first 10 s (≈ 5 ms once warm), 105–260 ms after 5,000 requests
 * of warm-up; 20,000 did no better and take four times as long. Tokens it issues are not counted in the metrics and go nowhere; a failure ends the
 * warm-up early (logged) and never the start.
 */
export async function warmUpTokenPath(app: NestExpressApplication, requests: number): Promise<void> {
  if (requests <= 0) return;
  const logger = new Logger('TokenWarmUp');
  const identity = app.get(TokenWarmUp).prepare();
  if (!identity) return logger.warn('token path not warmed up: the change listener is not connected');
  const metrics = app.get(MetricsRegistry);
  const counts = [metrics.tokensIssued, metrics.cacheHits, metrics.cacheMisses].map((t) => [t, t.count] as const);
  const listener = (app.getHttpServer() as Server).listeners('request')[0] as Listener;
  const server = createServer(listener);
  const started = performance.now();
  let sent = 0;
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const request = Buffer.from(
      `POST /${identity.tenant}/oauth2/v2.0/token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${identity.body.length}\r\n\r\n${identity.body}`,
    );
    // One request through Express first: its request logging enters an AsyncLocalStorage, which on
    // Node 20 turns on async hooks for the rest of the process and sends the token path's optimized
    // code back to the interpreter. Measured (BENCHMARKS.md): a replica whose first Express request
    // (a JWKS fetch) came after this warm-up had a p99 of 68 ms in its first second, 13 ms without.
    let probed = false;
    const probe = Buffer.from(`GET /health/live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await lane(port, probe, () => !probed && (probed = true));
    const more = () => sent < requests && (sent++, true);
    await Promise.all(Array.from({ length: CONNECTIONS }, () => lane(port, request, more)));
    logger.log(`token path warmed up: ${requests} requests in ${Math.round(performance.now() - started)} ms`);
  } catch (error) {
    logger.warn(`token path warm-up ended after ${sent} requests: ${(error as Error).message}`);
  } finally {
    server.close();
    identity.release();
    for (const [tally, count] of counts) tally.count = count;
  }
}

/**
 * One keep-alive connection sending `request` (the same bytes each time) one at a time until
 * `more()` says stop; rejects on any answer but 200. Raw bytes rather than `http.request`: the
 * client's own cost would otherwise be most of the warm-up's time.
 */
function lane(port: number, request: Buffer, more: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffered = '';
    const next = () => (more() ? socket.write(request) : socket.end());
    socket.setEncoding('latin1');
    socket.once('connect', next);
    socket.once('error', reject);
    socket.once('close', () => resolve());
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (;;) {
        const headEnd = buffered.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buffered.slice(0, headEnd))?.[1] ?? 0);
        if (buffered.length < headEnd + 4 + length) return;
        const status = buffered.slice(9, 12);
        buffered = buffered.slice(headEnd + 4 + length);
        if (status !== '200') {
          socket.destroy();
          return reject(new Error(`a warm-up token request was answered ${status}`));
        }
        next();
      }
    });
  });
}
