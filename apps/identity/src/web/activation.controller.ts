import { Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  AccountErrorCode,
  type ActivationLookup,
  ActivationService,
  LoginService,
  hashPassword,
} from '@gatehouse/accounts';
import { SessionService } from '@gatehouse/sessions';
import { html } from '@gatehouse/views';
import { LINK_HEADERS, activationRefusal, isAccountError } from './link-errors.js';
import { activationPage } from './pages/auth.pages.js';
import { sendPage, viewerOf } from './web-response.js';
import { type WebContext, WebSession, chosenPassword } from './web-session.js';
import { WebErrorFilter } from './web.filter.js';

/** `/activate/{token}`: choose a password from an activation or reset link (single use, ≤ 24 h). */
@Controller('activate')
@UseFilters(WebErrorFilter)
export class ActivationController {
  constructor(
    private readonly web: WebSession,
    private readonly activation: ActivationService,
    private readonly logins: LoginService,
    private readonly sessions: SessionService,
  ) {}

  @Get(':token')
  async show(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(LINK_HEADERS);
    const context = await this.web.load(req);
    const link = await this.usable(context, token);
    const body = activationPage({ csrf: this.web.anonymousToken(req, res), action: req.path, username: link.username });
    sendPage(
      res,
      200,
      { title: 'Choose your password', body, viewer: viewerOf(context), path: req.path },
      LINK_HEADERS,
    );
  }

  @Post(':token')
  async complete(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(LINK_HEADERS);
    this.web.checkAnonymousForm(req);
    const context = await this.web.load(req);
    const link = await this.usable(context, token);
    const { password, verdict } = chosenPassword(req, this.logins, context, link.username);
    if (!verdict.ok) {
      const body = activationPage({
        csrf: this.web.anonymousToken(req, res),
        action: req.path,
        username: link.username,
        error: verdict.message,
      });
      return sendPage(
        res,
        400,
        { title: 'Choose your password', body, viewer: viewerOf(context), path: req.path },
        LINK_HEADERS,
      );
    }
    try {
      await this.activation.completeActivation(context.tenant.id, token, await hashPassword(password), req.ip);
    } catch (error) {
      if (isAccountError(error)) throw activationRefusal(error.code);
      throw error;
    }
    await this.sessions.endAllOf(context.tenant.id, link.userId);
    const body = html`<p class="notice" role="status">Your password has been set.</p>
      <p><a class="button" href="/login">Log in</a></p>`;
    sendPage(res, 200, { title: 'Password set', body, viewer: null, path: '/login' }, LINK_HEADERS);
  }

  private async usable(context: WebContext, token: string): Promise<ActivationLookup> {
    let link: ActivationLookup;
    try {
      link = await this.activation.lookupActivation(context.tenant.id, token);
    } catch (error) {
      if (isAccountError(error)) throw activationRefusal(error.code);
      throw error;
    }
    if (link.status === 'used') throw activationRefusal(AccountErrorCode.LinkUsed);
    if (link.status === 'expired') throw activationRefusal(AccountErrorCode.LinkExpired);
    return link;
  }
}
