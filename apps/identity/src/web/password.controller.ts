import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LoginService, type PasswordChangeOutcome } from '@gatehouse/accounts';
import { SessionService } from '@gatehouse/sessions';
import type { FieldErrors } from '@gatehouse/views';
import { PASSWORD_CHANGED, passwordFieldErrors, passwordPage, wrongCurrentMessage } from './pages/auth.pages.js';
import { safeReturnTo } from './return-to.js';
import { requireUser } from './web-guard.js';
import { WebRedirect, sendPage, viewerOf } from './web-response.js';
import { WebSession, field } from './web-session.js';
import { WebErrorFilter } from './web.filter.js';

/** `/password`: change one's password (forced after logging in with an issued one). */
@Controller('password')
@UseFilters(WebErrorFilter)
export class PasswordController {
  constructor(
    private readonly web: WebSession,
    private readonly sessions: SessionService,
    private readonly credentials: LoginService,
  ) {}

  @Get()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    const principal = requireUser(context, req, { allowIssuedPassword: true });
    const body = passwordPage({
      csrf: principal.csrfToken,
      returnTo: safeReturnTo(req.query.returnTo),
      forced: principal.mustChangePassword,
    });
    sendPage(res, 200, { title: 'Change your password', body, viewer: viewerOf(context), path: '/password' });
  }

  @Post()
  async change(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    const principal = requireUser(context, req, { allowIssuedPassword: true });
    this.web.checkForm(req, principal);
    const returnTo = safeReturnTo(field(req, 'returnTo'));
    const outcome = await this.credentials.changePassword(context.tenant.id, principal.userId, {
      current: field(req, 'currentPassword'),
      next: field(req, 'newPassword'),
      confirmation: field(req, 'confirmPassword'),
      tenantSlug: context.tenant.slug,
      source: req.ip,
    });
    if (!outcome.ok) {
      const refusal = changeRefusal(outcome);
      const body = passwordPage({ csrf: principal.csrfToken, returnTo, forced: principal.mustChangePassword, errors: refusal.errors });
      const page = { title: 'Change your password', body, viewer: viewerOf(context), path: '/password' };
      return sendPage(res, refusal.status, page, refusal.headers);
    }
    const renewed = await this.sessions.renewAfterPasswordChange(principal, { flash: [PASSWORD_CHANGED] });
    this.web.startCookie(res, renewed.token);
    throw new WebRedirect(returnTo);
  }
}

/**
 * What the page says when a change is refused, beside the field to fix. A wrong current password
 * counts like a failed login: once it locks the account (or the network is blocked) the answer is
 * 429 with Retry-After.
 */
function changeRefusal(outcome: Exclude<PasswordChangeOutcome, { ok: true }>): {
  status: number;
  errors: FieldErrors;
  headers: Record<string, string>;
} {
  if (!outcome.wrongCurrent) return { status: 400, errors: passwordFieldErrors(outcome.verdict), headers: {} };
  if (outcome.retryAfterSeconds !== undefined) {
    const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
    const message = `Too many wrong passwords from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
    return { status: 429, errors: { currentPassword: message }, headers: { 'Retry-After': String(outcome.retryAfterSeconds) } };
  }
  const errors = { currentPassword: wrongCurrentMessage(outcome.lockedUntil) };
  const seconds = outcome.lockedUntil ? Math.ceil((outcome.lockedUntil.getTime() - Date.now()) / 1000) : 0;
  return seconds > 60 ? { status: 429, errors, headers: { 'Retry-After': String(seconds) } } : { status: 400, errors, headers: {} };
}
