import { Agent, type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { MetricsRegistry } from '@gatehouse/http';
import { TokenWarmUp } from '@gatehouse/tokens';

const CONNECTIONS = 8;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Sends the app `requests` token requests before it serves, through its own request listener (the
 * fast path, the endpoint, the grant, signing) on a loopback port of its own, for a tenant and
 * client that exist in memory only ({@link TokenWarmUp}). A fresh process runs its first requests
 * in V8's interpreter: measured here, a replica that starts under half its peak rate answers its
 * first second with a p99 of 250–400 ms instead of 5 ms, and after 5,000 requests of warm-up no
 * longer does. Tokens it issues are not counted in the metrics and go nowhere; a failure ends the
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
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const started = performance.now();
  let sent = 0;
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const send = () => post(agent, port, `/${identity.tenant}/oauth2/v2.0/token`, identity.body);
    const lane = async () => {
      while (sent < requests) {
        sent++;
        const status = await send();
        if (status !== 200) throw new Error(`a warm-up token request was answered ${status}`);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, lane));
    logger.log(`token path warmed up: ${requests} requests in ${Math.round(performance.now() - started)} ms`);
  } catch (error) {
    logger.warn(`token path warm-up ended after ${sent} requests: ${(error as Error).message}`);
  } finally {
    agent.destroy();
    server.close();
    identity.release();
    for (const [tally, count] of counts) tally.count = count;
  }
}

function post(agent: Agent, port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}
