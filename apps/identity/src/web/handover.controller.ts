import { Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { HandoverError, HandoverErrorCode, type HandoverLookup, HandoverService } from '@gatehouse/handovers';
import { CredentialPolicyError } from '@gatehouse/clients';
import { CredentialDeliveryService } from '@gatehouse/provisioning';
import { handoverPolicyRefusal, handoverRefusal } from './access-link-errors.js';
import { LINK_HEADERS } from './link-errors.js';
import { handoverPage, revealedPage } from './pages/handover.pages.js';
import { sendPage, viewerOf } from './web-response.js';
import { type WebContext, WebSession } from './web-session.js';
import { WebErrorFilter } from './web.filter.js';

/** Link pages must not be indexed, cached or leak through Referer. */
const HANDOVER_HEADERS = { ...LINK_HEADERS, 'X-Robots-Tag': 'noindex' };

/**
 * `/handover/{token}`: the one-time credential link. A GET only says what it is for (mail scanners
 * prefetch links); the Reveal POST creates the secret at that moment and shows it, once. Then the
 * link is dead (410).
 */
@Controller('handover')
@UseFilters(WebErrorFilter)
export class HandoverController {
  constructor(
    private readonly web: WebSession,
    private readonly handovers: HandoverService,
    private readonly delivery: CredentialDeliveryService,
  ) {}

  @Get(':token')
  async show(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(HANDOVER_HEADERS);
    const context = await this.web.load(req);
    const handover = await this.pending(context, token);
    const body = handoverPage({ csrf: this.web.anonymousToken(req, res), action: req.path, ...handover });
    sendPage(
      res,
      200,
      { title: 'Your API credentials', body, viewer: viewerOf(context), path: req.path },
      HANDOVER_HEADERS,
    );
  }

  @Post(':token')
  async reveal(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(HANDOVER_HEADERS);
    this.web.checkAnonymousForm(req);
    const context = await this.web.load(req);
    let credentials;
    try {
      credentials = await this.delivery.reveal(context.tenant.id, token, req.ip ?? null);
    } catch (error) {
      if (error instanceof CredentialPolicyError) throw handoverPolicyRefusal(error.message, await this.senderOf(context, token));
      if (!(error instanceof HandoverError)) throw error;
      throw handoverRefusal(error.code, await this.senderOf(context, token));
    }
    const body = revealedPage(credentials);
    sendPage(
      res,
      200,
      { title: 'Your API credentials', body, viewer: viewerOf(context), path: req.path },
      HANDOVER_HEADERS,
    );
  }

  private async pending(context: WebContext, token: string): Promise<HandoverLookup> {
    const handover = await this.lookup(context, token);
    if (handover.status === 'pending') return handover;
    throw handoverRefusal(REFUSALS[handover.status], handover);
  }

  /** What the refusal of a POST can name (a link unknown by now gets a page without). */
  private async senderOf(context: WebContext, token: string): Promise<HandoverLookup | undefined> {
    return this.handovers.lookup(context.tenant.id, token).catch((error: unknown) => {
      if (error instanceof HandoverError) return undefined;
      throw error;
    });
  }

  private async lookup(context: WebContext, token: string): Promise<HandoverLookup> {
    try {
      return await this.handovers.lookup(context.tenant.id, token);
    } catch (error) {
      if (error instanceof HandoverError) throw handoverRefusal(error.code);
      throw error;
    }
  }
}

const REFUSALS: Record<Exclude<HandoverLookup['status'], 'pending'>, HandoverErrorCode> = {
  revealed: HandoverErrorCode.AlreadyRevealed,
  expired: HandoverErrorCode.Expired,
  revoked: HandoverErrorCode.Revoked,
};
