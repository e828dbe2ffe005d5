import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const POLL_MS = 50;

/**
 * Graceful stop of an HTTP server, whatever serves its requests (Express, or the token fast path
 * ahead of it): stop accepting, let every request in flight finish with `Connection: close`,
 * close idle keep-alive connections, and cut what is still open when the time is up. Tracks
 * connections, not requests, so serving costs nothing extra.
 */
export class HttpDrain {
  private readonly sockets = new Set<Socket>();

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Resolves when every connection is closed, at the latest after `timeoutMs` (then cut). */
  async drain(timeoutMs: number): Promise<void> {
    // Requests arriving on a kept-alive connection from now on are answered, then it closes.
    this.server.prependListener('request', (_req, res: ServerResponse) => closeAfter(res));
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const deadline = Date.now() + timeoutMs;
    while (this.sockets.size > 0 && Date.now() < deadline) {
      for (const socket of this.sockets) {
        const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
        if (current) closeAfter(current);
      }
      // Node knows which connections are between requests (none half read): only those close now.
      this.server.closeIdleConnections();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

function closeAfter(res: ServerResponse): void {
  if (!res.headersSent) res.shouldKeepAlive = false;
}
