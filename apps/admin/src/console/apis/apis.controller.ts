import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage } from '../frame/console.guard.js';
import { ApisPresenter } from './apis.presenter.js';

/** `/console/apis`: APIs and their scopes, with the permissions of `/admin/v1/apis`. */
@ConsoleController('apis')
export class ApisController {
  constructor(
    private readonly apis: ApisPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Clients.Read')
  list(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.apis.list(who, req.query as Record<string, unknown>));
  }

  @Get('new')
  @ConsolePage('Apis.Manage')
  showCreate(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.apis.showCreate(who));
  }

  @Post('new')
  @ConsolePage('Apis.Manage')
  create(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.apis.create(who, req));
  }

  @Get(':id')
  @ConsolePage('Clients.Read')
  show(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.apis.show(who, id));
  }

  @Post(':id/scopes')
  @ConsolePage('Apis.Manage')
  addScope(
    @Console() who: ConsolePrincipal,
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.apis.addScope(who, id, req));
  }
}
