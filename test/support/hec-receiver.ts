import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { RECEIVER_CA_FILES } from './webhook-receiver.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * An HTTPS endpoint shaped like Splunk's HTTP Event Collector: `Authorization: Splunk <token>`,
 * a body of concatenated JSON events, `{"text":"Success","code":0}`; `failNext` answers 503.
 */
export class HecReceiver {
  readonly batches: Json[][] = [];
  failNext = 0;
  private server: Server | undefined;
  url = '';

  constructor(readonly token: string) {}

  async start(): Promise<string> {
    this.server = createServer({ cert: readFileSync(RECEIVER_CA_FILES.certFile), key: readFileSync(RECEIVER_CA_FILES.keyFile) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.headers.authorization !== `Splunk ${this.token}`) return void res.writeHead(401).end('{"text":"Invalid authorization","code":3}');
        if (this.failNext > 0 && this.failNext--) return void res.writeHead(503).end('{"text":"Server is busy","code":9}');
        const text = Buffer.concat(chunks).toString('utf8');
        this.batches.push(text.split('\n').filter(Boolean).map((line) => JSON.parse(line)));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"Success","code":0}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/services/collector/event`;
    return this.url;
  }

  events(): Json[] {
    return this.batches.flat();
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
