import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { EmailAdminService, MailError, MailErrorCode } from '@gatehouse/mail';
import { when } from '@gatehouse/views';
import { EmailQueryDto } from '../../dto/invitations.dto.js';
import { parseInput, queryField } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { emailDetail, emailList } from './email.pages.js';

/**
 * The Email page group (`Invitations.Manage`): the outbox newest first by status, one mail, and
 * retrying it: the same `EmailAdminService` calls as `GET /admin/v1/emails` and `POST …/retry`.
 * Bodies are never shown (REST never returns them: they hold one-time links).
 */
@Injectable()
export class EmailPresenter {
  constructor(private readonly emails: EmailAdminService) {}

  async list(who: ConsolePrincipal, req: Request): Promise<ConsoleView> {
    const status = queryField(req, 'status') || undefined;
    const cursor = queryField(req, 'cursor') || undefined;
    const before = cursor ? undefined : queryField(req, 'before') || undefined;
    const { value, errors } = await parseInput(EmailQueryDto, { status, cursor, before, order: 'newest' });
    const error = errors.status ? 'Choose one of the statuses in the list.' : undefined;
    const page = error ? null : await this.emails.list(who.tenantId, value);
    return {
      title: 'Email',
      lead: 'Every mail Gatehouse sends, with its delivery state. Mail that was given up after retries can be sent again.',
      body: emailList({ base: who.base, status, page, error }),
      status: error ? 400 : 200,
    };
  }

  async detail(who: ConsolePrincipal, id: string, error?: string): Promise<ConsoleView> {
    const email = await this.emails.get(who.tenantId, id);
    return {
      title: email.subject,
      breadcrumbs: [{ label: 'Email', href: `${who.base}/email` }, { label: email.subject }],
      body: emailDetail({ base: who.base, csrf: who.csrfToken, email, error }),
      status: error ? 409 : 200,
    };
  }

  async retry(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    try {
      const email = await this.emails.retry(who.tenantId, who, id);
      const at = email.nextAttemptAt ? new Date(email.nextAttemptAt) : new Date();
      const next = at.getTime() > Date.now() ? `The next attempt is ${when(at)}.` : 'The next delivery run sends it.';
      return { redirect: `${who.base}/email/${id}`, flash: { kind: 'success', text: `The mail to ${email.to} is queued again. ${next}` } };
    } catch (error) {
      if (error instanceof MailError && error.code === MailErrorCode.NotRetryable) {
        return this.detail(who, id, `${error.message} Only a failed or abandoned mail can be sent again.`);
      }
      throw error;
    }
  }
}
