import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from '@gatehouse/database';
import { SessionService } from '@gatehouse/sessions';
import { codeField, hiddenInputs, html, postForm } from '@gatehouse/views';
import { ConsolePageError, ConsoleRedirect, StepUpRequired } from './console.errors.js';
import { domainErrorStatus } from './console-error-pages.js';
import type { ConsolePrincipal, ConsoleRequest } from './console-principal.js';
import { ConsoleResponder, type ConsoleView, redirect } from './console-responder.js';
import { ConsoleOnce, FormRepeated } from './console-once.js';
import { goBack, repeated } from './console-once.pages.js';

/** Renders the console's refusals, failures and step-up prompts as pages (never JSON). */
@Catch()
@Injectable()
export class ConsoleFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  constructor(
    private readonly out: ConsoleResponder,
    private readonly once: ConsoleOnce,
    private readonly sessions: SessionService,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<ConsoleRequest>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const who = req.console;
    const sent = this.once.release(req, who).then(async () => {
      if (error instanceof ConsoleRedirect) return redirect(res, error.location);
      if (error instanceof FormRepeated && who)
        return this.out.send(res, who, await repeated(error, who, this.sessions));
      const view = error instanceof StepUpRequired && who ? stepUpPage(error, who) : this.pageFor(error, req);
      if (who && view.status === 409) view.body = html`${view.body}${goBack(req, who)}`;
      return who ? this.out.send(res, who, view) : this.out.signIn(res, baseOf(req), view);
    });
    sent.catch((failure: unknown) => {
      this.logger.error(failure instanceof Error ? (failure.stack ?? failure.message) : String(failure));
      if (!res.headersSent) res.status(500).type('text/plain').send('The page could not be shown.');
    });
  }

  private pageFor(error: unknown, req: Request): ConsoleView {
    if (error instanceof ConsolePageError) return page(error.status, error.title, error.detail);
    const status = domainErrorStatus(error);
    if (status !== null) return page(status, 'Not done', (error as Error).message);
    if (error instanceof HttpException && error.getStatus() < 500) {
      const notFound = error.getStatus() === 404;
      return notFound
        ? page(404, 'Page not found', 'There is no such console page.')
        : page(error.getStatus(), 'Request refused', 'The request could not be handled.');
    }
    if (isDatabaseUnavailable(error))
      return page(503, 'Temporarily unavailable', 'The console cannot reach its database. Try again in a moment.');
    const errorId = randomUUID();
    const logged =
      error instanceof Error
        ? { name: error.name, message: error.message, stack: error.stack }
        : { value: String(error) };
    this.logger.error({ errorId, requestId: req.id, error: logged }, 'console error');
    return page(
      500,
      'Something went wrong',
      `The page could not be shown (error id ${errorId}). Nothing is lost: try again.`,
    );
  }
}

function page(status: number, title: string, detail: ConsoleView['body'] | string): ConsoleView {
  return { status, title, body: html`<p>${detail}</p>` };
}

function baseOf(req: Request): string {
  const named = typeof req.params?.tenant === 'string' ? req.params.tenant : undefined;
  return named ? `/t/${encodeURIComponent(named)}/console` : '/console';
}

/** The inline step-up: the code, then the very same form posted again with what was typed. */
function stepUpPage(prompt: StepUpRequired, who: ConsolePrincipal): ConsoleView {
  return {
    title: 'Confirm it is you',
    lead: 'This action needs a second factor from the last five minutes. Enter the current code from your authenticator app (or a recovery code); the action then continues as you submitted it.',
    body: postForm({
      action: prompt.action,
      csrf: who.csrfToken,
      submit: 'Confirm and continue',
      body: html`${hiddenInputs(prompt.fields)}
      ${codeField({ name: '_stepup_code', id: 'stepup-code', label: 'Authentication code', error: prompt.error, autofocus: true, required: true })}`,
      aside: html`<a href="${who.base}">Cancel</a>`,
    }),
  };
}
