import { Get, Param, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { FormSubmissionRepository } from '@gatehouse/sessions';
import { ConsoleController } from './console-controller.js';
import { ConsoleOnce } from './console-once.js';
import { resultPage, resumePage } from './console-once.pages.js';
import { Console, type ConsolePrincipal, type ConsoleRequest } from './console-principal.js';
import { ConsoleResponder } from './console-responder.js';
import { ConsolePage } from './console.guard.js';

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * `/console/results/{token}`: the page of an action that shows something once (a new secret), as
 * a GET after the POST's redirect, for the session that sent it, once. `/console/resume/{token}`:
 * a form kept when the session ended, for the person who typed it, as typed. `/console/session/alive`:
 * keeps the session alive for the warning before it ends.
 */
@ConsoleController('')
export class ConsoleResultsController {
  constructor(
    private readonly once: ConsoleOnce,
    private readonly forms: FormSubmissionRepository,
    private readonly out: ConsoleResponder,
  ) {}

  @Get('results/:token')
  @ConsolePage(null)
  async result(
    @Console() who: ConsolePrincipal,
    @Param('token') token: string,
    @Req() req: ConsoleRequest,
    @Res() res: Response,
  ): Promise<void> {
    const kept = TOKEN.test(token) ? await this.once.take(req, who, token) : null;
    return this.out.send(res, who, resultPage(who, kept));
  }

  /** The page's "Stay signed in": the guard has just renewed the session's idle time; nothing to show. */
  @Get('session/alive')
  @ConsolePage(null)
  alive(@Res() res: Response): void {
    res.setHeader('Cache-Control', 'no-store');
    res.status(204).end();
  }

  @Get('resume/:token')
  @ConsolePage(null)
  async resume(@Console() who: ConsolePrincipal, @Param('token') token: string, @Res() res: Response): Promise<void> {
    const stash = /^[A-Za-z0-9_-]{43}$/.test(token)
      ? await this.forms.findStash(who.tenantId, who.userId, token)
      : null;
    return this.out.send(res, who, resumePage(who, stash));
  }
}
