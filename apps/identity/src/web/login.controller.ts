import { Controller, Get, Inject, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LoginService, SecondFactorService } from '@gatehouse/accounts';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { SessionService } from '@gatehouse/sessions';
import { loginPage, loginRefusal } from './pages/auth.pages.js';
import { enrolFirstPage } from './pages/second-factor.pages.js';
import { returnToQuery, safeReturnTo } from './return-to.js';
import { WebRedirect, sendPage, viewerOf } from './web-response.js';
import { WebSession, field } from './web-session.js';
import { WebErrorFilter } from './web.filter.js';

/** `/login` and `/logout`: the login prompt, a fresh session at each login, logout everywhere. */
@Controller()
@UseFilters(WebErrorFilter)
export class LoginController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly web: WebSession,
    private readonly sessions: SessionService,
    private readonly credentials: LoginService,
    private readonly factors: SecondFactorService,
  ) {}

  @Get()
  home(): void {
    throw new WebRedirect('/docs');
  }

  @Get('login')
  async showLogin(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    const returnTo = safeReturnTo(req.query.returnTo);
    if (context.principal) throw new WebRedirect(returnTo);
    const csrf = this.web.anonymousToken(req, res);
    sendPage(res, 200, { title: 'Log in', body: loginPage({ csrf, returnTo }), viewer: null, path: '/login' });
  }

  @Post('login')
  async login(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.web.checkAnonymousForm(req);
    const context = await this.web.load(req);
    const returnTo = safeReturnTo(field(req, 'returnTo'));
    const username = field(req, 'username').trim();
    const lookup = /[\u0000-\u001f]/.test(username) ? '' : username.slice(0, 200); // Postgres text holds no NUL
    const outcome = await this.credentials.authenticate(context.tenant.id, lookup, field(req, 'password'), req.ip);
    if (!outcome.ok && outcome.throttled) {
      const csrf = this.web.anonymousToken(req, res);
      const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
      const error = `Too many failed logins from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
      const body = loginPage({ csrf, returnTo, username, error });
      return sendPage(
        res,
        429,
        { title: 'Log in', body, viewer: viewerOf(context), path: '/login' },
        {
          'Retry-After': String(outcome.retryAfterSeconds),
        },
      );
    }
    if (!outcome.ok) {
      const csrf = this.web.anonymousToken(req, res);
      const body = loginPage({ csrf, returnTo, username, error: loginRefusal(outcome.lockedUntil) });
      return sendPage(res, 401, { title: 'Log in', body, viewer: viewerOf(context), path: '/login' });
    }
    const staff = outcome.user.roles.length > 0;
    if (staff && !(await this.hasSecondFactor(context.tenant.id, outcome.user.id))) {
      return sendPage(res, 403, { title: 'Set up your second factor first', body: enrolFirstPage(`${this.config.adminPublicUrl}/console/login`), viewer: null, path: '/login' });
    }
    await this.sessions.end(this.web.currentToken(req));
    const started = await this.sessions.start(context.tenant.id, outcome.user.id);
    this.web.startCookie(res, started.token);
    // Staff: the password alone opens nothing; the second factor comes next (SECURITY 58).
    if (staff) throw new WebRedirect(`/login/code?${returnToQuery(returnTo)}`);
    throw new WebRedirect(outcome.user.mustChangePassword ? `/password?${returnToQuery(returnTo)}` : returnTo);
  }

  private async hasSecondFactor(tenantId: string, userId: string): Promise<boolean> {
    const [factor] = await this.factors.summaries(tenantId, [userId]);
    return Boolean(factor?.totpConfirmedAt);
  }

  @Post('logout')
  async logout(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    if (context.principal) {
      this.web.checkForm(req, context.principal);
      await this.sessions.endAllOf(context.tenant.id, context.principal.userId);
    }
    this.web.clearCookie(res);
    throw new WebRedirect('/login');
  }
}
