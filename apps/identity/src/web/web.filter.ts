import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from '@gatehouse/database';
import { html } from '@gatehouse/views';
import { WebRedirect, sendPage, viewerOf } from './web-response.js';
import { WebSession } from './web-session.js';
import { WebPageError } from './web.errors.js';

/** Renders refusals and failures of the Web UI as pages, with their status. */
@Catch()
@Injectable()
export class WebErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('WebUI');

  constructor(private readonly web: WebSession) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (error instanceof WebRedirect) {
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, error.location);
      return;
    }
    const page = this.pageFor(error);
    sendPage(
      res,
      page.status,
      {
        title: page.title,
        body: html`<p>${page.detail}</p>`,
        viewer: viewerOf(this.web.loadedFor(req)),
        path: req.path,
      },
      page.headers,
    );
  }

  private pageFor(error: unknown): WebPageError {
    if (error instanceof WebPageError) return error;
    if (error instanceof HttpException && error.getStatus() < 500) {
      return new WebPageError(error.getStatus(), 'Request refused', 'The request could not be handled.');
    }
    if (isDatabaseUnavailable(error)) {
      this.logger.warn(`database unavailable: ${error instanceof Error ? error.message : String(error)}`);
      return new WebPageError(
        503,
        'Temporarily unavailable',
        'The page cannot be shown right now. Please try again in a moment.',
        { 'Retry-After': '5' },
      );
    }
    this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return new WebPageError(500, 'Something went wrong', 'The page could not be shown. Please try again later.');
  }
}
