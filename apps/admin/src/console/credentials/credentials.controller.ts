import { Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage } from '../frame/console.guard.js';
import { CredentialsPresenter } from './credentials.presenter.js';

/** `/console/credentials`: the credential report (Clients.Read, like `GET /admin/v1/credential-report`), with its CSV. */
@ConsoleController('credentials')
export class CredentialsConsoleController {
  constructor(
    private readonly credentials: CredentialsPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Clients.Read')
  list(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.credentials.list(who, req.query as Record<string, unknown>));
  }

  @Get('export.csv')
  @ConsolePage('Clients.Read')
  export(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.credentials.export(who, req.query as Record<string, unknown>));
  }
}
