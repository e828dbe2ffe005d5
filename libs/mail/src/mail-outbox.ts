import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { KeyEncryptor } from '@gatehouse/crypto';
import { assertSingleAddress } from './address.js';
import { EmailRepository } from './email.repository.js';
import type { RenderedEmail } from './templates.js';

export interface OutboxEntry {
  tenantId: string;
  to: string;
  mail: RenderedEmail;
}

/** Associated data binding a sealed body to its row and part. */
export function bodyContext(id: string, part: 'text' | 'html'): string {
  return `email:${id}:${part}`;
}

/** Writes mail into the outbox inside the caller's business transaction; a worker delivers it. */
@Injectable()
export class MailOutbox {
  constructor(
    private readonly emails: EmailRepository,
    private readonly encryptor: KeyEncryptor,
  ) {}

  async enqueue(em: EntityManager, entry: OutboxEntry): Promise<string> {
    const [id] = await this.enqueueMany(em, [entry]);
    return id!;
  }

  /** Several mails in one statement (scheduled warnings). */
  async enqueueMany(em: EntityManager, entries: OutboxEntry[]): Promise<string[]> {
    if (!entries.length) return [];
    const rows = entries.map((entry) => this.row(entry));
    await this.emails.insert(em, rows);
    return rows.map((row) => row.id);
  }

  private row(entry: OutboxEntry) {
    const id = randomUUID();
    return {
      id,
      tenantId: entry.tenantId,
      toAddress: assertSingleAddress(entry.to),
      subject: entry.mail.subject.replace(/[\p{Cc}\u2028\u2029]+/gu, ' '),
      textBody: this.encryptor.encrypt(Buffer.from(entry.mail.text, 'utf8'), bodyContext(id, 'text')),
      htmlBody: this.encryptor.encrypt(Buffer.from(entry.mail.html, 'utf8'), bodyContext(id, 'html')),
      template: entry.mail.template,
      status: 'queued' as const,
    };
  }
}
