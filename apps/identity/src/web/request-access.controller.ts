import { Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  AccessRequestError,
  AccessRequestErrorCode,
  AccessRequestService,
  accessRequestFromForm,
  type ConfirmationLookup,
  type FieldProblem,
} from '@gatehouse/requests';
import { confirmationRefusal } from './access-link-errors.js';
import { LINK_HEADERS } from './link-errors.js';
import {
  EMPTY_REQUEST_FORM,
  type RequestFormValues,
  confirmRequestPage,
  requestConfirmedPage,
  requestFormPage,
  requestSentPage,
} from './pages/request.pages.js';
import { WebRedirect, sendPage, viewerOf } from './web-response.js';
import { type WebContext, WebSession, field } from './web-session.js';
import { WebErrorFilter } from './web.filter.js';

const TITLE = 'Request access';

/**
 * `/request-access`: the public form (no login), and `/request-access/confirm/{token}`, the link
 * that confirms the address (a GET only shows it: mail scanners prefetch links; a POST confirms).
 * The answer to a request is the same whoever asks: it never tells whether an address is known.
 */
@Controller('request-access')
@UseFilters(WebErrorFilter)
export class RequestAccessController {
  constructor(
    private readonly web: WebSession,
    private readonly requests: AccessRequestService,
  ) {}

  @Get()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    this.sendForm(req, res, context, 200, EMPTY_REQUEST_FORM, []);
  }

  @Post()
  async submit(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.web.checkAnonymousForm(req);
    const context = await this.web.load(req);
    const values = formValues(req);
    try {
      const outcome = await this.requests.submitPublic(context.tenant.id, accessRequestFromForm(values), {
        source: req.ip,
        honeypot: field(req, 'website') !== '',
      });
      if (!outcome.accepted) {
        const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
        const alert = `Too many requests from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
        res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
        return this.sendForm(req, res, context, 429, values, [], alert);
      }
    } catch (error) {
      if (!(error instanceof AccessRequestError) || error.code !== AccessRequestErrorCode.Invalid) throw error;
      return this.sendForm(req, res, context, 400, values, error.fields);
    }
    throw new WebRedirect('/request-access/sent');
  }

  @Get('sent')
  async sent(@Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.web.load(req);
    sendPage(res, 200, {
      title: 'Check your mailbox',
      body: requestSentPage(),
      viewer: viewerOf(context),
      path: req.path,
    });
  }

  @Get('confirm/:token')
  async showConfirm(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(LINK_HEADERS);
    const context = await this.web.load(req);
    const request = await this.usable(context, token);
    const body = confirmRequestPage({ csrf: this.web.anonymousToken(req, res), action: req.path, ...request });
    sendPage(
      res,
      200,
      { title: 'Confirm your request', body, viewer: viewerOf(context), path: req.path },
      LINK_HEADERS,
    );
  }

  @Post('confirm/:token')
  async confirm(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(LINK_HEADERS);
    this.web.checkAnonymousForm(req);
    const context = await this.web.load(req);
    try {
      await this.requests.confirm(context.tenant.id, token);
    } catch (error) {
      if (error instanceof AccessRequestError) throw confirmationRefusal(error.code);
      throw error;
    }
    const body = requestConfirmedPage();
    sendPage(res, 200, { title: 'Request confirmed', body, viewer: viewerOf(context), path: req.path }, LINK_HEADERS);
  }

  private sendForm(
    req: Request,
    res: Response,
    context: WebContext,
    status: number,
    values: RequestFormValues,
    problems: FieldProblem[],
    alert?: string,
  ): void {
    const csrf = this.web.anonymousToken(req, res);
    const body = requestFormPage({ csrf, tenantName: context.tenant.displayName, values, problems, alert });
    sendPage(res, status, { title: TITLE, body, viewer: viewerOf(context), path: req.path });
  }

  private async usable(context: WebContext, token: string): Promise<ConfirmationLookup> {
    let request: ConfirmationLookup;
    try {
      request = await this.requests.lookupConfirmation(context.tenant.id, token);
    } catch (error) {
      if (error instanceof AccessRequestError) throw confirmationRefusal(error.code);
      throw error;
    }
    if (request.status === 'confirmed') throw confirmationRefusal(AccessRequestErrorCode.AlreadyConfirmed);
    if (request.status === 'expired') throw confirmationRefusal(AccessRequestErrorCode.LinkExpired);
    return request;
  }
}

function formValues(req: Request): RequestFormValues {
  return {
    requesterName: field(req, 'requesterName'),
    requesterEmail: field(req, 'requesterEmail'),
    organisation: field(req, 'organisation'),
    wantsAccount: field(req, 'wantsAccount') === 'yes',
    documentation: field(req, 'documentation'),
    reason: field(req, 'reason'),
    wantsApi: field(req, 'wantsApi') === 'yes',
    systemName: field(req, 'systemName'),
    technicalContactEmail: field(req, 'technicalContactEmail'),
    purpose: field(req, 'purpose'),
  };
}

