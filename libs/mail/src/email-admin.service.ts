import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type Page, type PageRequest, decodeCursor, pageSize, toPage } from '@gatehouse/database';
import type { Email, EmailStatus } from './email.entity.js';
import { EmailRepository } from './email.repository.js';
import { MailError, MailErrorCode } from './mail.errors.js';

/** An outbox row as the admin API shows it: never a body (bodies carry live links). */
export interface EmailView {
  id: string;
  to: string;
  subject: string;
  template: string;
  status: EmailStatus;
  attempts: number;
  /** Null once nothing more will be tried (sent, abandoned). */
  nextAttemptAt: string | null;
  retryUntil: string | null;
  lastError: string | null;
  sentAt: string | null;
  createdAt: string;
}

export function toEmailView(email: Email): EmailView {
  return {
    id: email.id,
    to: email.toAddress,
    subject: email.subject,
    template: email.template,
    status: email.status,
    attempts: email.attempts,
    nextAttemptAt: email.status === 'sent' || email.status === 'abandoned' ? null : email.nextAttemptAt.toISOString(),
    retryUntil: email.retryUntil ? email.retryUntil.toISOString() : null,
    lastError: email.lastError,
    sentAt: email.sentAt ? email.sentAt.toISOString() : null,
    createdAt: email.createdAt.toISOString(),
  };
}

@Injectable()
export class EmailAdminService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly emails: EmailRepository,
    private readonly audit: AuditService,
  ) {}

  async list(tenantId: string, filter: PageRequest & { status?: EmailStatus }): Promise<Page<EmailView>> {
    const size = pageSize(filter.limit);
    const rows = await this.emails.page(tenantId, { status: filter.status, after: decodeCursor(filter.cursor), take: size + 1 });
    return toPage(rows, size, (e) => ({ at: e.createdAt, id: e.id }), toEmailView);
  }

  /** A failed or abandoned mail goes back to the queue with a fresh attempt budget. */
  retry(tenantId: string, actor: Actor, id: string): Promise<EmailView> {
    return this.dataSource.transaction(async (em) => {
      const existing = await this.emails.findById(tenantId, id, em);
      if (!existing) throw new MailError(MailErrorCode.NotFound, 'No such email.');
      const requeued = await this.emails.requeue(em, tenantId, id);
      if (!requeued) throw new MailError(MailErrorCode.NotRetryable, `An email in status ${existing.status} cannot be retried.`);
      await this.audit.record(em, {
        tenantId,
        actor,
        action: 'email.retried',
        targetType: 'email',
        targetId: id,
        details: { previousStatus: existing.status, attempts: existing.attempts },
      });
      return toEmailView(requeued);
    });
  }
}
