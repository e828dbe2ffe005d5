import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type CursorPosition, type KeysetFetch, MILLISECOND_CURSORS, type TwoWayPage, type TwoWayRequest, twoWayPage } from '@gatehouse/database';
import type { Email, EmailOrder, EmailStatus } from './email.entity.js';
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

  /** The outbox by status, as queued (oldest first) or newest first; `cursor` pages on, `before` back. */
  list(tenantId: string, filter: TwoWayRequest & { status?: EmailStatus; order?: EmailOrder }): Promise<TwoWayPage<EmailView>> {
    const query = { status: filter.status, order: filter.order ?? 'oldest' };
    const fetch: KeysetFetch<Email, CursorPosition> = (range) => this.emails.page(tenantId, { ...query, ...range });
    return twoWayPage(filter, { fetch, position: (e) => ({ at: e.createdAt, id: e.id }), cursors: MILLISECOND_CURSORS }, toEmailView);
  }

  /** One outbox row of the tenant (never its body). */
  async get(tenantId: string, id: string): Promise<EmailView> {
    const email = await this.emails.findById(tenantId, id);
    if (!email) throw new MailError(MailErrorCode.NotFound, 'No such email.');
    return toEmailView(email);
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
