import { Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  AccountErrorCode,
  LoginService,
  PasswordResetService,
  type ResetLinkLookup,
  hashPassword,
  resetIdentifierProblem,
} from '@gatehouse/accounts';
import { SessionService } from '@gatehouse/sessions';
import { LINK_HEADERS, isAccountError, resetLinkRefusal } from './link-errors.js';
import type { FieldErrors } from '@gatehouse/views';
import { passwordFieldErrors } from './pages/auth.pages.js';
import { codeRefusal } from './pages/second-factor.pages.js';
import { passwordResetDonePage, resetPasswordPage, resetRequestPage, resetRequestedPage } from './pages/password-reset.pages.js';
import { WebRedirect, sendPage, viewerOf } from './web-response.js';
import { type WebContext, WebSession, chosenPassword, field } from './web-session.js';
import { WebErrorFilter } from './web.filter.js';

const TITLE = 'Forgot your password?';

/**
 * `/password-reset`: a person who forgot their password asks for a link by username or email
 * address; the answer is the same whether or not it names an account (the use case does the same
 * work either way). `/password-reset/{token}`: the link's page (a GET only shows it), where a POST
 * sets the new password once.
 */
@Controller('password-reset')
@UseFilters(WebErrorFilter)
export class PasswordResetController {
  constructor(
    private readonly web: WebSession,
    private readonly resets: PasswordResetService,
    private readonly logins: LoginService,
    private readonly sessions: SessionService,
  ) {}

  @Get()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    const body = resetRequestPage({ csrf: this.web.anonymousToken(req, res) });
    sendPage(res, 200, { title: TITLE, body, viewer: viewerOf(context), path: req.path });
  }

  @Post()
  async request(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.web.checkAnonymousForm(req);
    const context = await this.web.load(req);
    const identifier = field(req, 'identifier').trim();
    const problem = resetIdentifierProblem(identifier);
    const typed = identifier.slice(0, 254);
    if (problem) return this.sendForm(req, res, context, 400, { value: typed, error: problem });
    const outcome = await this.resets.request(context.tenant.id, identifier, req.ip);
    if (!outcome.accepted) {
      const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
      const alert = `Too many requests from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
      res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
      return this.sendForm(req, res, context, 429, { value: typed, alert });
    }
    throw new WebRedirect('/password-reset/sent');
  }

  @Get('sent')
  async sent(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    sendPage(res, 200, { title: 'Check your mailbox', body: resetRequestedPage(), viewer: viewerOf(context), path: req.path });
  }

  @Get(':token')
  async showLink(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(LINK_HEADERS);
    const context = await this.web.load(req);
    this.sendLinkForm(req, res, context, await this.usable(context, token), 200, {});
  }

  @Post(':token')
  async complete(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(LINK_HEADERS);
    this.web.checkAnonymousForm(req);
    const context = await this.web.load(req);
    const link = await this.usable(context, token);
    const { password, verdict } = chosenPassword(req, this.logins, context, link.username);
    if (!verdict.ok) return this.sendLinkForm(req, res, context, link, 400, passwordFieldErrors(verdict));
    const input = { code: field(req, 'code'), source: req.ip };
    const done = await this.resets.complete(context.tenant.id, token, await hashPassword(password), input).catch(refused);
    if (!done.ok) {
      const refusal = done.secondFactor;
      const code = refusal.throttled ? 'Too many failed logins from your network. Please try again later.' : codeRefusal(refusal.lockedUntil);
      return this.sendLinkForm(req, res, context, link, refusal.throttled || refusal.lockedUntil ? 429 : 401, { code });
    }
    await this.sessions.endAllOf(context.tenant.id, done.userId);
    if (context.principal?.userId === done.userId) this.web.clearCookie(res);
    const page = { title: 'Password changed', body: passwordResetDonePage(done.holdsRole), viewer: null, path: '/login' };
    sendPage(res, 200, page, LINK_HEADERS);
  }

  /** The link's form again, with what to fix beside its field (nothing was used or changed). */
  private sendLinkForm(req: Request, res: Response, context: WebContext, link: ResetLinkLookup, status: number, errors: FieldErrors): void {
    const body = resetPasswordPage({ csrf: this.web.anonymousToken(req, res), action: req.path, ...link, errors });
    sendPage(res, status, { title: 'Choose a new password', body, viewer: viewerOf(context), path: req.path }, LINK_HEADERS);
  }

  private sendForm(req: Request, res: Response, context: WebContext, status: number, input: { value: string; error?: string; alert?: string }): void {
    const body = resetRequestPage({ csrf: this.web.anonymousToken(req, res), ...input });
    sendPage(res, status, { title: TITLE, body, viewer: viewerOf(context), path: req.path });
  }

  /** The link while it can set a password; otherwise the page saying why not (404 / 410). */
  private async usable(context: WebContext, token: string): Promise<ResetLinkLookup> {
    const link = await this.resets.lookup(context.tenant.id, token).catch(refused);
    if (link.status === 'used') throw resetLinkRefusal(AccountErrorCode.LinkUsed);
    if (link.status === 'expired') throw resetLinkRefusal(AccountErrorCode.LinkExpired);
    return link;
  }
}

function refused(error: unknown): never {
  if (isAccountError(error)) throw resetLinkRefusal(error.code);
  throw error;
}
