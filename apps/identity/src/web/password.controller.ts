import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LoginService } from '@gatehouse/accounts';
import { SessionService } from '@gatehouse/sessions';
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
      const errors = outcome.wrongCurrent
        ? { currentPassword: wrongCurrentMessage(outcome.lockedUntil) }
        : passwordFieldErrors(outcome.verdict);
      const body = passwordPage({ csrf: principal.csrfToken, returnTo, forced: principal.mustChangePassword, errors });
      return sendPage(res, 400, { title: 'Change your password', body, viewer: viewerOf(context), path: '/password' });
    }
    const renewed = await this.sessions.renewAfterPasswordChange(principal, { flash: [PASSWORD_CHANGED] });
    this.web.startCookie(res, renewed.token);
    throw new WebRedirect(returnTo);
  }
}
