import { Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage, StepUp } from '../frame/console.guard.js';
import { KeysPresenter } from './keys.presenter.js';

/** `/console/keys`: Administrators see the tenant's signing keys and roll one over (with step-up). */
@ConsoleController('keys')
export class KeysController {
  constructor(
    private readonly keys: KeysPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Tenant.Manage')
  list(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.keys.list(who));
  }

  @Get('rollover')
  @ConsolePage('Tenant.Manage')
  confirm(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.keys.confirmRollover(who));
  }

  @Post('rollover')
  @ConsolePage('Tenant.Manage')
  @StepUp()
  rollover(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.keys.rollover(who, req));
  }
}
