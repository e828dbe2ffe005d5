import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage } from '../frame/console.guard.js';
import { EmailPresenter } from './email.presenter.js';

/** `/console/email`: the outbox by status, one mail, retry. */
@ConsoleController('email')
export class EmailConsoleController {
  constructor(
    private readonly emails: EmailPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Invitations.Manage')
  list(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.emails.list(who, req));
  }

  @Get(':id')
  @ConsolePage('Invitations.Manage')
  detail(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.emails.detail(who, id));
  }

  @Post(':id/retry')
  @ConsolePage('Invitations.Manage')
  retry(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.emails.retry(who, id));
  }
}
