import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage, PasswordChangePage, StepUp } from '../frame/console.guard.js';
import { AccountPresenter } from './account.presenter.js';

/** `/console/account`: every staff member's own password, second factor, recovery codes and sessions. */
@ConsoleController('account')
export class AccountController {
  constructor(
    private readonly account: AccountPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage(null)
  show(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.account.show(who));
  }

  @Get('password')
  @ConsolePage(null)
  @PasswordChangePage()
  showPassword(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.account.showPassword(who));
  }

  @Post('password')
  @ConsolePage(null)
  @PasswordChangePage()
  changePassword(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.account.changePassword(who, req, res));
  }

  @Post('recovery-codes')
  @ConsolePage(null)
  @StepUp()
  regenerate(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.account.regenerateRecoveryCodes(who));
  }

  @Post('passkeys/options')
  @ConsolePage(null)
  passkeyOptions(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.account.passkeyOptions(who, res);
  }

  @Post('passkeys')
  @ConsolePage(null)
  @StepUp()
  addPasskey(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.account.addPasskey(who, req));
  }

  @Post('passkeys/:id/remove')
  @ConsolePage(null)
  @StepUp()
  removePasskey(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.account.removePasskey(who, id));
  }

  @Post('sessions/end-others')
  @ConsolePage(null)
  endOthers(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.account.endOthers(who));
  }
}
