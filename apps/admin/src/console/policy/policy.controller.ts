import { Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage, StepUp } from '../frame/console.guard.js';
import { PolicyPresenter } from './policy.presenter.js';

/** `/console/credential-policy`: Administrators read and change the tenant's credential policy (with step-up). */
@ConsoleController('credential-policy')
export class PolicyController {
  constructor(
    private readonly policy: PolicyPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Tenant.Manage')
  show(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.policy.show(who));
  }

  @Post()
  @ConsolePage('Tenant.Manage')
  @StepUp()
  save(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.policy.save(who, req));
  }
}
