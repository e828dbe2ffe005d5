import { type ArgumentsHost, Catch, type ExceptionFilter, Injectable, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { html } from '@gatehouse/views';
import { sendPage } from './web-response.js';
import { notFound } from './web.errors.js';

/**
 * Paths no controller serves: a browser gets the UI's "Page not found" page, any other client
 * Nest's JSON answer. The OAuth and Web UI controllers have filters of their own and never get here.
 */
@Catch(NotFoundException)
@Injectable()
export class NotFoundPageFilter implements ExceptionFilter {
  catch(exception: NotFoundException, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (req.accepts(['json', 'html']) !== 'html') {
      res.status(404).json(exception.getResponse());
      return;
    }
    const page = notFound();
    sendPage(res, 404, { title: page.title, body: html`<p>${page.detail}</p>`, viewer: null, path: req.path });
  }
}
