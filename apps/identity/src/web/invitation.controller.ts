import { Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { InvitationErrorCode, type InvitationLookup, InvitationService } from '@gatehouse/invitations';
import { LINK_HEADERS, invitationRefusal, isInvitationError } from './link-errors.js';
import { invitationPage } from './pages/content.pages.js';
import { requireUser } from './web-guard.js';
import { WebRedirect, sendPage, viewerOf } from './web-response.js';
import { WebSession } from './web-session.js';
import { WebErrorFilter } from './web.filter.js';

/**
 * `/invitations/{token}`: the link from the invitation mail. A GET only shows it (mail scanners
 * prefetch links); accepting is a POST with the session's CSRF token, for the invited user only.
 */
@Controller('invitations')
@UseFilters(WebErrorFilter)
export class InvitationController {
  constructor(
    private readonly web: WebSession,
    private readonly invitations: InvitationService,
  ) {}

  @Get(':token')
  async show(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(LINK_HEADERS);
    const context = await this.web.load(req);
    const principal = requireUser(context, req);
    const invitation = await this.lookup(context.tenant.id, token);
    if (invitation.userId !== principal.userId) throw invitationRefusal(InvitationErrorCode.WrongUser);
    if (invitation.status !== 'pending')
      throw invitationRefusal(STATUS_CODES[invitation.status], invitation.contactEmail);
    const body = invitationPage({
      csrf: principal.csrfToken,
      action: req.path,
      sections: invitation.sections,
      expiresAt: invitation.expiresAt,
    });
    sendPage(
      res,
      200,
      { title: 'Invitation to documentation', body, viewer: viewerOf(context), path: req.path },
      LINK_HEADERS,
    );
  }

  @Post(':token')
  async accept(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(LINK_HEADERS);
    const context = await this.web.load(req);
    const principal = requireUser(context, req);
    this.web.checkForm(req, principal);
    try {
      await this.invitations.accept(context.tenant.id, principal.userId, token);
    } catch (error) {
      if (!isInvitationError(error)) throw error;
      const contact =
        error.code === InvitationErrorCode.WrongUser ? undefined : await this.contactOf(context.tenant.id, token);
      throw invitationRefusal(error.code, contact);
    }
    throw new WebRedirect('/docs');
  }

  private async lookup(tenantId: string, token: string): Promise<InvitationLookup> {
    try {
      return await this.invitations.lookup(tenantId, token);
    } catch (error) {
      if (isInvitationError(error)) throw invitationRefusal(error.code);
      throw error;
    }
  }

  private async contactOf(tenantId: string, token: string): Promise<string | undefined> {
    return (await this.lookup(tenantId, token)).contactEmail;
  }
}

const STATUS_CODES: Record<Exclude<InvitationLookup['status'], 'pending'>, InvitationErrorCode> = {
  accepted: InvitationErrorCode.AlreadyAccepted,
  expired: InvitationErrorCode.Expired,
  revoked: InvitationErrorCode.Revoked,
};
