import { hostname } from 'node:os';
import { type Socket, connect as tcpConnect } from 'node:net';
import { connect as tlsConnect, rootCertificates } from 'node:tls';
import type { AuditEventView } from '@gatehouse/audit';
import { type OutboundRules, outboundFetch } from '@gatehouse/outbound';
import { syslogFrame } from './rfc5424.js';

/** An audit event as streamed: the API's view of it and the tenant it belongs to. */
export type StreamedEvent = AuditEventView & { tenantId: string };

/** Where the audit stream goes; `send` resolves once the batch was handed over (and throws if it was not). */
export interface AuditSink {
  readonly name: 'syslog' | 'hec';
  send(events: StreamedEvent[]): Promise<void>;
  close(): void;
}

const CONNECT_TIMEOUT_MS = 10_000;

/** RFC 5424 over TCP or TLS (`AUDIT_SYSLOG_URL`), octet-counted frames on one kept-open connection. */
export class SyslogSink implements AuditSink {
  readonly name = 'syslog';
  private socket: Socket | undefined;

  constructor(
    private readonly url: URL,
    private readonly extraCa?: string,
  ) {}

  async send(events: StreamedEvent[]): Promise<void> {
    const socket = await this.connected();
    const frames = events.map((event) => syslogFrame(event, event)).join('');
    await new Promise<void>((resolve, reject) => socket.write(frames, (error) => (error ? reject(error) : resolve())));
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connected(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    const host = this.url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(this.url.port);
    return new Promise<Socket>((resolve, reject) => {
      const ca = this.extraCa ? [...rootCertificates, this.extraCa] : undefined;
      const socket =
        this.url.protocol === 'tls:'
          ? tlsConnect({ host, port, servername: host, ca }, () => resolve(socket))
          : tcpConnect({ host, port }, () => resolve(socket));
      const timer = setTimeout(() => socket.destroy(new Error(`syslog: no connection within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
      socket.once(this.url.protocol === 'tls:' ? 'secureConnect' : 'connect', () => clearTimeout(timer));
      socket.on('error', (error) => {
        clearTimeout(timer);
        if (this.socket === socket) this.socket = undefined;
        reject(error);
      });
      socket.on('close', () => {
        if (this.socket === socket) this.socket = undefined;
      });
      socket.on('data', () => undefined); // a syslog receiver says nothing; read whatever comes
      this.socket = socket;
    });
  }
}

/** Splunk's HTTP Event Collector (`AUDIT_HEC_URL`, `AUDIT_HEC_TOKEN`): one POST of concatenated JSON events per batch. */
export class HecSink implements AuditSink {
  readonly name = 'hec';
  private readonly rules: OutboundRules;
  private readonly host = hostname();

  constructor(
    private readonly url: string,
    private readonly token: string,
    extraCa?: string,
  ) {
    // The operator configured this URL: it may be an address inside the network.
    this.rules = { privateAllowed: [url], extraCa };
  }

  async send(events: StreamedEvent[]): Promise<void> {
    const body = events
      .map((event) => JSON.stringify({ time: Date.parse(event.occurredAt) / 1000, host: this.host, source: 'gatehouse', sourcetype: 'gatehouse:audit', event }))
      .join('\n');
    const answer = await outboundFetch(
      {
        url: this.url,
        method: 'POST',
        headers: { authorization: `Splunk ${this.token}`, 'content-type': 'application/json' },
        body,
        timeoutMs: 10_000,
        maxBytes: 64 * 1024,
        whenTooLarge: 'truncate',
        sameOriginRedirects: 0,
      },
      this.rules,
    );
    if (answer.status < 200 || answer.status >= 300) throw new Error(`the HTTP Event Collector answered HTTP ${answer.status}`);
  }

  close(): void {}
}
