import { Injectable } from '@nestjs/common';
import { cookieOf } from '@gatehouse/http';
import { FormSubmissionRepository, csrfMatches, sessionIdOf } from '@gatehouse/sessions';
import { html } from '@gatehouse/views';
import { ConsolePageError, ConsoleRedirect, forbiddenForm } from './console.errors.js';
import { field, formFields } from './console-forms.js';
import type { ConsoleRequest } from './console-principal.js';
import { ConsoleSession } from './console-session.js';

/** Fields never kept on the server: what was typed there is typed again. */
const SECRET_FIELD = /password|secret|code|credential/i;

/**
 * A request that arrives without a live session. A page (GET) goes to the sign-in and back. A
 * form sent after the session ended — 15 idle minutes over a long Markdown edit — is kept for the
 * person whose session it was (same origin, that session's CSRF token; never a password, code or
 * secret), and the page says so with a sign-in link that returns to it as typed, ready to send.
 */
@Injectable()
export class ConsoleTimedOut {
  constructor(
    private readonly forms: FormSubmissionRepository,
    private readonly session: ConsoleSession,
  ) {}

  async toSignIn(req: ConsoleRequest, tenantId: string, base: string): Promise<ConsoleRedirect | ConsolePageError> {
    if (req.method === 'GET' || req.method === 'HEAD') {
      return new ConsoleRedirect(`${base}/login?returnTo=${encodeURIComponent(req.originalUrl)}`);
    }
    if (!this.session.sameOrigin(req)) return forbiddenForm();
    const cookie = cookieOf(req, this.session.cookieName);
    const owner = cookie && cookie.length <= 100 ? await this.forms.ownerOf(sessionIdOf(cookie), tenantId) : null;
    const fields = formFields(req);
    const keep =
      owner &&
      csrfMatches(owner.csrfSecret, field(req, '_csrf')) &&
      Object.keys(fields).length > 0 &&
      !Object.keys(fields).some((name) => SECRET_FIELD.test(name));
    if (!keep) {
      const signIn = `${base}/login?returnTo=${encodeURIComponent(base)}`;
      return new ConsolePageError(
        401,
        'Signed out',
        html`Your console session has ended, so nothing was changed. <a href="${signIn}">Sign in again</a> and send the
          form once more.`,
      );
    }
    const token = await this.forms.stash(tenantId, owner.userId, req.originalUrl.split('?')[0]!, fields);
    const signIn = `${base}/login?returnTo=${encodeURIComponent(`${base}/resume/${token}`)}`;
    return new ConsolePageError(
      401,
      'Signed out: what you typed is kept',
      html`Your console session ended before this form was sent, so nothing was changed yet. What you typed is kept for
        an hour: <a href="${signIn}">sign in again</a> and the form comes back as you typed it, ready to send.`,
    );
  }
}
