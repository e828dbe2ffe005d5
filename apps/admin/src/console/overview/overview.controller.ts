import { Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage } from '../frame/console.guard.js';
import { OverviewPresenter } from './overview.presenter.js';

/** `/console`: the Overview, every staff member's start page. */
@ConsoleController('')
export class OverviewController {
  constructor(
    private readonly overview: OverviewPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage(null)
  show(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.overview.show(who));
  }
}
