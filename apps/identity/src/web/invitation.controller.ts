import { Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LoginService, hashPassword } from '@gatehouse/accounts';
import { InvitationErrorCode, type InvitationLookup, InvitationLinkService } from '@gatehouse/invitations';
import { SessionService } from '@gatehouse/sessions';
import { LINK_HEADERS, invitationRefusal, isInvitationError } from './link-errors.js';
import { invitationPasswordPage } from './pages/auth.pages.js';
import { invitationPage } from './pages/content.pages.js';
import { utc } from '@gatehouse/views';
import { returnToQuery } from './return-to.js';
import { pathOf, requireUser } from './web-guard.js';
import { WebRedirect, sendPage, viewerOf } from './web-response.js';
import { type WebContext, WebSession, chosenPassword } from './web-session.js';
import { WebErrorFilter } from './web.filter.js';

/**
 * `/invitations/{token}`: the link from the invitation mail. A GET only shows it (mail scanners
 * prefetch links); accepting is a POST with the session's CSRF token, for the invited user only.
 * A link that no longer works says so to every visitor (410). An invited person without a password
 * chooses one on this page first (a POST with the anonymous form's token), is signed in, and
 * accepts: one link, one flow.
 */
@Controller('invitations')
@UseFilters(WebErrorFilter)
export class InvitationController {
  constructor(
    private readonly web: WebSession,
    private readonly invitations: InvitationLinkService,
    private readonly logins: LoginService,
    private readonly sessions: SessionService,
  ) {}

  @Get(':token')
  async show(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(LINK_HEADERS);
    const context = await this.web.load(req);
    const invitation = await this.usable(context.tenant.id, token);
    if (!context.principal && !invitation.userHasPassword) return this.choosePassword(req, res, context, invitation);
    const principal = requireUser(context, req);
    if (invitation.userId !== principal.userId) throw invitationRefusal(InvitationErrorCode.WrongUser);
    const body = invitationPage({ csrf: principal.csrfToken, action: req.path, sections: invitation.sections, expiresAt: invitation.expiresAt });
    const page = { title: 'Invitation to documentation', body, viewer: viewerOf(context), path: req.path };
    sendPage(res, 200, page, LINK_HEADERS);
  }

  @Post(':token')
  async accept(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(LINK_HEADERS);
    const context = await this.web.load(req);
    if (!context.principal) return this.setPassword(token, req, res, context);
    const principal = requireUser(context, req);
    this.web.checkForm(req, principal);
    try {
      await this.invitations.accept(context.tenant.id, principal.userId, token);
    } catch (error) {
      if (!isInvitationError(error)) throw error;
      throw error.code === InvitationErrorCode.WrongUser ? invitationRefusal(error.code) : await this.refusal(context.tenant.id, token, error.code);
    }
    throw new WebRedirect('/docs');
  }

  /** The anonymous POST: the invited person's new password, set through the link; then on to accepting. */
  private async setPassword(token: string, req: Request, res: Response, context: WebContext): Promise<void> {
    this.web.checkAnonymousForm(req);
    const invitation = await this.usable(context.tenant.id, token);
    if (invitation.userHasPassword) throw new WebRedirect(`/login?${returnToQuery(pathOf(req))}`); // log in, then back here
    const { password, verdict } = chosenPassword(req, this.logins, context, invitation.username);
    if (!verdict.ok) return this.choosePassword(req, res, context, invitation, verdict.message);
    try {
      const { userId } = await this.invitations.setPassword(context.tenant.id, token, await hashPassword(password), req.ip);
      this.web.startCookie(res, (await this.sessions.start(context.tenant.id, userId)).token);
    } catch (error) {
      if (isInvitationError(error)) throw await this.refusal(context.tenant.id, token, error.code);
      throw error;
    }
    throw new WebRedirect(req.path);
  }

  private choosePassword(req: Request, res: Response, context: WebContext, invitation: InvitationLookup, error?: string): void {
    if (!invitation.passwordUntil) throw invitationRefusal(InvitationErrorCode.PasswordWindowClosed, factsOf(invitation));
    const csrf = this.web.anonymousToken(req, res);
    const until = utc(invitation.passwordUntil);
    const body = invitationPasswordPage({ csrf, action: req.path, username: invitation.username, until, error });
    sendPage(res, error ? 400 : 200, { title: 'Choose your password', body, viewer: viewerOf(context), path: req.path }, LINK_HEADERS);
  }

  /** The link's invitation while it can still be used; otherwise the page saying why not (404 / 410). */
  private async usable(tenantId: string, token: string): Promise<InvitationLookup> {
    let invitation: InvitationLookup;
    try {
      invitation = await this.invitations.lookup(tenantId, token);
    } catch (error) {
      if (isInvitationError(error)) throw invitationRefusal(error.code);
      throw error;
    }
    if (invitation.status !== 'pending') throw invitationRefusal(STATUS_CODES[invitation.status], factsOf(invitation));
    if (!invitation.userActive) throw invitationRefusal(InvitationErrorCode.UserDisabled, factsOf(invitation));
    return invitation;
  }

  /** The page for a refused POST, with whom to ask (a link unknown by now gets it without). */
  private async refusal(tenantId: string, token: string, code: InvitationErrorCode) {
    const invitation = await this.invitations.lookup(tenantId, token).catch((error: unknown) => {
      if (isInvitationError(error)) return null;
      throw error;
    });
    return invitationRefusal(code, invitation ? factsOf(invitation) : {});
  }
}

function factsOf(invitation: InvitationLookup) {
  return { contactEmail: invitation.contactEmail, contactName: invitation.contactName, newerLinkSentAt: invitation.linkSentAt };
}

const STATUS_CODES: Record<Exclude<InvitationLookup['status'], 'pending'>, InvitationErrorCode> = {
  accepted: InvitationErrorCode.AlreadyAccepted,
  expired: InvitationErrorCode.Expired,
  revoked: InvitationErrorCode.Revoked,
  superseded: InvitationErrorCode.Superseded,
};
