import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';

export interface OutgoingMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** SMTP connections the pool keeps open; delivery sends this many messages at a time. */
export const SMTP_CONNECTIONS = 2;

/**
 * Sends one message: pooled SMTP on SMTP_URL, or without it an `.eml` file under DATA_DIR/mail.
 * The file's path is logged; the link itself only in development (it is a live credential).
 */
@Injectable()
export class MailTransport implements OnApplicationShutdown {
  private readonly logger = new Logger(MailTransport.name);
  private readonly smtp: Transporter | undefined;
  private readonly files: Transporter;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.smtp = config.smtpUrl
      ? nodemailer.createTransport({
          url: config.smtpUrl,
          pool: true,
          maxConnections: SMTP_CONNECTIONS,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        } as Parameters<typeof nodemailer.createTransport>[0])
      : undefined;
    this.files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(mail: OutgoingMail): Promise<void> {
    const message = {
      from: this.config.mailFrom,
      to: mail.to,
      envelope: { from: envelopeSender(this.config.mailFrom), to: [mail.to] },
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<${mail.id}@gatehouse>`,
    };
    if (this.smtp) {
      await this.smtp.sendMail(message);
      return;
    }
    const info = (await this.files.sendMail(message)) as { message: Buffer };
    const dir = join(this.config.dataDir, 'mail');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${mail.id}.eml`);
    await writeFile(file, info.message, { mode: 0o600 });
    const link = this.config.nodeEnv === 'development' ? firstLink(mail.text, this.config.publicUrl) : undefined;
    this.logger.log({ file, ...(link ? { link } : {}) }, 'mail written to file (no SMTP_URL)');
  }

  /** True when SMTP accepts a connection and greets (connect, EHLO, auth if configured, QUIT). */
  async reachable(): Promise<boolean> {
    if (!this.smtp) return true;
    try {
      return await this.smtp.verify();
    } catch {
      return false;
    }
  }

  onApplicationShutdown(): void {
    this.smtp?.close();
  }
}

function envelopeSender(mailFrom: string): string {
  return /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
}

function firstLink(text: string, publicUrl: string): string | undefined {
  return text.split(/\s+/).find((word) => word.startsWith(`${publicUrl}/`));
}
