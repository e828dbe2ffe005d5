import { mkdtempSync, readFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { ensureDevCertificate } from '@gatehouse/http';

/** The test CA every receiver's certificate comes from (handed to Gatehouse as `outboundCa`). */
const certificate = ensureDevCertificate(mkdtempSync(join(tmpdir(), 'webhook-tls-')));
export const RECEIVER_CA = readFileSync(certificate.certFile, 'utf8');
/** The receivers' certificate and key (self-signed for 127.0.0.1: the CA above). */
export const RECEIVER_CA_FILES = certificate;

export interface Received {
  id: string;
  type: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  signature: string;
  /** Which of the receiver's secrets verified it (index), by the `standardwebhooks` library. */
  verifiedBy: number[];
}

/** What the endpoint does with a request: answer a status (with headers), or never answer. */
export type Behaviour = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A real HTTPS webhook endpoint: every request is verified with `standardwebhooks` against the
 * secrets it was given; verified ones are kept in `received` (every attempt, duplicates too).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly refused: string[] = [];
  secrets: string[] = [];
  behaviour: (attempt: number) => Behaviour = () => ({ status: 204 });
  /** The most requests this endpoint had open at once. */
  maxConcurrent = 0;
  private open = 0;
  private server: Server | undefined;
  private attempts = 0;
  url = '';

  async start(path = '/hooks'): Promise<string> {
    this.server = createServer({ cert: readFileSync(certificate.certFile), key: readFileSync(certificate.keyFile) }, (req, res) =>
      this.handle(req, res),
    );
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
    return this.url;
  }

  /** Each event id once, in the order first received. */
  ids(): string[] {
    return [...new Set(this.received.map((r) => r.id))];
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.maxConcurrent = Math.max(this.maxConcurrent, ++this.open);
    res.once('close', () => this.open--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const behaviour = this.behaviour(++this.attempts);
      if (behaviour === 'hang') return;
      const payload = Buffer.concat(chunks).toString('utf8');
      const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
      const verifiedBy = this.secrets.flatMap((secret, index) => (verifies(secret, payload, headers) ? [index] : []));
      if (verifiedBy.length === 0) {
        this.refused.push(payload);
        res.writeHead(400).end('signature');
        return;
      }
      if (behaviour.status < 300) {
        this.received.push({ id: headers['webhook-id'], type: JSON.parse(payload).type, body: JSON.parse(payload), signature: headers['webhook-signature'], verifiedBy });
      }
      res.writeHead(behaviour.status, behaviour.headers ?? {}).end();
    });
  }
}

function verifies(secret: string, payload: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(payload, headers);
    return true;
  } catch {
    return false;
  }
}
