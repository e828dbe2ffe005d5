import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsRegistry } from './metrics.js';

/** An app as the management listener sees it: a name and whether it is ready. */
export interface ReadinessSource {
  name: string;
  ready(): Promise<boolean>;
}

/**
 * The management listener (`MANAGEMENT_PORT`, as Keycloak's port 9000): `/metrics` for the whole
 * process, and `/health/live` and `/health/ready` over every app the process runs. It is the only
 * place `/metrics` is served; keep it off the public network.
 */
export class ManagementServer {
  private readonly server: Server;

  constructor(
    private readonly metrics: MetricsRegistry,
    private readonly sources: () => ReadinessSource[],
  ) {
    this.server = createServer((req, res) => void this.answer(req, res));
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve((this.server.address() as AddressInfo).port));
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only\n');
    try {
      if (path === '/metrics') {
        return send(res, 200, this.metrics.registry.contentType, await this.metrics.registry.metrics());
      }
      if (path === '/health/live') return send(res, 200, 'application/json', '{"status":"ok"}');
      if (path === '/health/ready') return await this.readiness(res);
      send(res, 404, 'text/plain', 'not found\n');
    } catch {
      send(res, 500, 'text/plain', 'internal error\n');
    }
  }

  private async readiness(res: ServerResponse): Promise<void> {
    const sources = this.sources();
    const results = await Promise.all(sources.map(async (s) => [s.name, await s.ready()] as const));
    const ok = results.length > 0 && results.every(([, ready]) => ready);
    const apps = Object.fromEntries(results.map(([name, ready]) => [name, ready ? 'up' : 'down']));
    send(res, ok ? 200 : 503, 'application/json', JSON.stringify({ status: ok ? 'ok' : 'unavailable', apps }));
  }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
