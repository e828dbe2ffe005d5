import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  envelopeTo: string[];
  raw: string;
  parsed: ParsedMail;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server in-process (127.0.0.1): keeps every message; can be stopped and restarted. */
export class SmtpSink {
  readonly messages: SunkMail[] = [];
  private server: SMTPServer | undefined;
  port = 0;
  /** Recipients the server refuses with 550 (a message that keeps failing). */
  refuse: (address: string) => boolean = () => false;
  /** Each message is acknowledged only after this (a slow server); `hold` keeps them waiting until it settles. */
  delayMs = 0;
  hold: Promise<void> | undefined;
  /** Messages whose data arrived, acknowledged or not (a sender killed mid-send shows here only). */
  received = 0;

  /** Starts on a free port, or on the port it had before (to play "SMTP is back"). */
  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      closeTimeout: 200,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.refuse(address.address)) return callback(new Error('550 mailbox unavailable'));
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          this.received++;
          if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
          if (this.hold) await this.hold;
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw)
            .then((parsed) => {
              this.messages.push({
                envelopeTo: session.envelope.rcptTo.map((r) => r.address),
                raw,
                parsed,
                to: Array.isArray(parsed.to) ? parsed.to.map((t) => t.text).join(', ') : (parsed.to?.text ?? ''),
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
              });
              callback();
            })
            .catch((error: Error) => callback(error));
        });
      },
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits until `count` messages match (polling; fails after `timeoutMs`). */
  async waitFor(predicate: (m: SunkMail) => boolean, count = 1, timeoutMs = 10_000): Promise<SunkMail[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.filter(predicate);
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} mail(s); have ${found.length}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
