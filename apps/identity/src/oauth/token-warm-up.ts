import { type Server, createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Server as TlsServer } from 'node:https';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { MetricsRegistry } from '@gatehouse/http';
import { TokenWarmUp } from '@gatehouse/tokens';
import type { Listener } from './token-fast-path.js';
import { warmUpRequests } from './token-warm-up-requests.js';

const CONNECTIONS = 8;
/**
 * Requests a warm-up connection sends before it closes and the next one opens: a replica's first
 * second brings hundreds of new connections (a load balancer's, a client pool's), and the code of a
 * connection's first request is then optimized too, not only that of the requests after it.
 */
const REQUESTS_PER_CONNECTION = 10;
const EXPRESS_EVERY = 20;

/**
 * Sends the app `requests` requests before it serves, through its own server (or, over TLS, its
 * request listener on a plain server of its own) on a loopback port: token requests (the fast path,
 * the endpoint, the grant, signing) for a tenant and clients that exist in memory only
 * ({@link TokenWarmUp}: clients taken in turn), in the header sets of common clients on a new
 * connection every {@link REQUESTS_PER_CONNECTION}, and one health probe through Express in every
 * {@link EXPRESS_EVERY}. A fresh process runs its first requests in V8's interpreter, and
 * code optimized for other objects than real requests bring is thrown away at the first of them:
 * measured (BENCHMARKS.md), at half its peak a fresh replica's p99 over its first 10 s was 165 ms
 * after a warm-up of one header set on a server of its own, 8–25 ms after this one, 7 ms after a
 * minute of real traffic. Its length (TOKEN_WARMUP_REQUESTS) decides how much of V8's optimizing is
 * done before the first real request: after 5,000, V8's compiler threads still took 60–170 ms a
 * second of the replica's core in the first seconds of load (BENCHMARKS.md, "A cold start's compiler
 * threads"). Tokens it issues are not counted in the metrics and go nowhere; a failure
 * ends the warm-up early (logged) and never the start.
 */
export async function warmUpTokenPath(app: NestExpressApplication, requests: number): Promise<void> {
  if (requests <= 0) return;
  const logger = new Logger('TokenWarmUp');
  const identity = app.get(TokenWarmUp).prepare();
  if (!identity) return logger.warn('token path not warmed up: the change listener is not connected');
  const metrics = app.get(MetricsRegistry);
  const counts = [metrics.tokensIssued, metrics.cacheHits, metrics.cacheMisses].map((t) => [t, t.count] as const);
  const appServer = app.getHttpServer() as Server;
  // Its sockets, requests and responses then have the shapes real ones will have; it listens again later.
  const server = appServer instanceof TlsServer ? createServer(appServer.listeners('request')[0] as Listener) : appServer;
  const started = performance.now();
  let sent = 0;
  let connections = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject).listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    // Each held client in every header set, the clients taken in turn.
    const variants = identity.bodies.map((body) => warmUpRequests(`/${identity.tenant}/oauth2/v2.0/token`, `127.0.0.1:${port}`, body));
    // One request through Express first: its request logging enters an AsyncLocalStorage, which on
    // Node 20 turns on async hooks for the rest of the process and sends the token path's optimized
    // code back to the interpreter. Measured (BENCHMARKS.md): a replica whose first Express request
    // (a JWKS fetch) came after this warm-up had a p99 of 68 ms in its first second, 13 ms without.
    let probed = false;
    const probe = Buffer.from(`GET /health/live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await lane(port, () => (probed ? null : ((probed = true), probe)));
    // Express requests come between token requests in production (health probes, JWKS fetches): one
    // in every EXPRESS_EVERY here, so that Node's HTTP code is optimized for both kinds of request
    // and response objects (Express gives its own their own prototypes).
    const next = () => {
      if (sent >= requests) return null;
      if (++sent % EXPRESS_EVERY === 0) return probe;
      const sets = variants[sent % variants.length]!;
      return sets[Math.floor(sent / variants.length) % sets.length]!;
    };
    const connectionsInTurn = async () => {
      while (sent < requests) {
        let left = REQUESTS_PER_CONNECTION;
        connections++;
        await lane(port, () => (left-- > 0 ? next() : null));
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, connectionsInTurn));
    logger.log(
      `token path warmed up: ${requests} requests from ${identity.bodies.length} clients on ${connections} connections in ${Math.round(performance.now() - started)} ms`,
    );
  } catch (error) {
    logger.warn(`token path warm-up ended after ${sent} requests: ${(error as Error).message}`);
  } finally {
    await new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
    identity.release();
    for (const [tally, count] of counts) tally.count = count;
  }
}

/**
 * One keep-alive connection sending the requests `next()` gives, one at a time, until it gives
 * null; rejects on any answer but 200. Raw bytes rather than `http.request`: the client's own cost
 * would otherwise be most of the warm-up's time.
 */
function lane(port: number, next: () => Buffer | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffered = '';
    const send = () => {
      const request = next();
      if (request) socket.write(request);
      else socket.end();
    };
    socket.setEncoding('latin1');
    socket.once('connect', send);
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
        send();
      }
    });
  });
}
