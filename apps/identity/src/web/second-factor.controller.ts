import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SecondFactorService } from '@gatehouse/accounts';
import { type SessionPrincipal, SessionService } from '@gatehouse/sessions';
import { codePage, codeRefusal } from './pages/second-factor.pages.js';
import { returnToQuery, safeReturnTo } from './return-to.js';
import { WebRedirect, sendPage, viewerOf } from './web-response.js';
import { WebSession, field } from './web-session.js';
import type { WebContext } from './web-session.js';
import { WebErrorFilter } from './web.filter.js';

/**
 * `/login/code`: the second step of a Web UI login for a person who holds a role (SECURITY 58).
 * Staff sign in with a second factor wherever they sign in, as Entra's and Keycloak's second
 * factors hold for every application of the tenant or realm: their Web UI session opens nothing,
 * the password page included, until the code is right. Wrong codes count toward the
 * second-factor lockout, the console's own.
 */
@Controller('login/code')
@UseFilters(WebErrorFilter)
export class SecondFactorController {
  constructor(
    private readonly web: WebSession,
    private readonly sessions: SessionService,
    private readonly factors: SecondFactorService,
  ) {}

  @Get()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    const returnTo = safeReturnTo(req.query.returnTo);
    const pending = pendingOf(context, returnTo);
    const body = codePage({ csrf: pending.csrfToken, returnTo, username: pending.username });
    sendPage(res, 200, { title: 'Enter your code', body, viewer: viewerOf(context), path: '/login/code' });
  }

  @Post()
  async verify(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    const returnTo = safeReturnTo(field(req, 'returnTo'));
    const pending = pendingOf(context, returnTo);
    this.web.checkForm(req, pending);
    const outcome = await this.factors.verify(context.tenant.id, pending.userId, field(req, 'code'), req.ip);
    if (!outcome.ok) {
      const error = outcome.throttled ? 'Too many failed logins from your network. Please try again later.' : codeRefusal(outcome.lockedUntil);
      const body = codePage({ csrf: pending.csrfToken, returnTo, username: pending.username, error });
      return sendPage(res, outcome.throttled || outcome.lockedUntil ? 429 : 401, { title: 'Enter your code', body, viewer: viewerOf(context), path: '/login/code' });
    }
    // A new session id for the session that passed both factors.
    await this.sessions.end(this.web.currentToken(req));
    const started = await this.sessions.start(context.tenant.id, pending.userId, { secondFactorAt: new Date() });
    this.web.startCookie(res, started.token);
    throw new WebRedirect(pending.mustChangePassword ? `/password?${returnToQuery(returnTo)}` : returnTo);
  }
}

/** The password-only session of a person who holds a role; anyone else has nothing to do here. */
function pendingOf(context: WebContext, returnTo: string): SessionPrincipal {
  const principal = context.principal;
  if (!principal) throw new WebRedirect(`/login?${returnToQuery(returnTo)}`);
  if (principal.secondFactorAt || principal.roles.length === 0) throw new WebRedirect(returnTo);
  return principal;
}
