import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage } from '../frame/console.guard.js';
import { OrganisationsPresenter } from './organisations.presenter.js';

/** `/console/organisations`: partner organisations; contact persons and Administrators create, offboard and restore them. */
@ConsoleController('organisations')
export class OrganisationsConsoleController {
  constructor(
    private readonly organisations: OrganisationsPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Users.Read')
  list(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.organisations.list(who, req));
  }

  @Get('new')
  @ConsolePage('Users.Manage')
  showNew(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, Promise.resolve(this.organisations.showNew(who)));
  }

  @Post()
  @ConsolePage('Users.Manage')
  create(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.organisations.create(who, req));
  }

  @Get(':id')
  @ConsolePage('Users.Read')
  detail(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.organisations.detail(who, id));
  }

  @Get(':id/offboard')
  @ConsolePage('Users.Manage')
  confirmOffboard(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.organisations.confirmOffboard(who, id));
  }

  @Post(':id/offboard')
  @ConsolePage('Users.Manage')
  offboard(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.organisations.offboard(who, id));
  }

  @Post(':id/restore')
  @ConsolePage('Users.Manage')
  restore(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.organisations.restore(who, id));
  }
}
