import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LoginService, type PasswordChangeOutcome } from '@gatehouse/accounts';
import { SessionService } from '@gatehouse/sessions';
import { passwordPage } from './pages/auth.pages.js';
import { utcMinute } from './pages/content.pages.js';
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
      const body = passwordPage({ csrf: principal.csrfToken, returnTo, forced: principal.mustChangePassword, error: refusal.message });
      const page = { title: 'Change your password', body, viewer: viewerOf(context), path: '/password' };
      return sendPage(res, refusal.status, page, refusal.headers);
    }
    this.web.startCookie(res, (await this.sessions.renewAfterPasswordChange(principal)).token);
    throw new WebRedirect(returnTo);
  }
}

/** What the page says when a change is refused: a wrong current password counts like a failed login. */
function changeRefusal(outcome: Exclude<PasswordChangeOutcome, { ok: true }>): { status: number; message: string; headers: Record<string, string> } {
  if (!outcome.wrongCurrent) return { status: 400, message: outcome.verdict.ok ? '' : outcome.verdict.message, headers: {} };
  if (outcome.retryAfterSeconds !== undefined) {
    const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
    const message = `Too many wrong passwords from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
    return { status: 429, message, headers: { 'Retry-After': String(outcome.retryAfterSeconds) } };
  }
  const seconds = outcome.lockedUntil ? Math.ceil((outcome.lockedUntil.getTime() - Date.now()) / 1000) : 0;
  if (seconds > 60) {
    const message = `The current password was entered wrongly too often, so your account is locked until ${utcMinute(outcome.lockedUntil!)}. Please try again then.`;
    return { status: 429, message, headers: { 'Retry-After': String(seconds) } };
  }
  const wait = seconds > 0 ? ' Please wait a few seconds before you try again.' : '';
  return { status: 400, message: `The current password is incorrect.${wait}`, headers: {} };
}
