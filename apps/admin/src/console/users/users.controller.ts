import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage, StepUp } from '../frame/console.guard.js';
import { UserActionsPresenter } from './user-actions.presenter.js';
import { UsersPresenter } from './users.presenter.js';

/**
 * `/console/users`: the list, a new user, a user's page and what may be done to them. Each
 * handler needs the permission of its REST twin (users, user-credentials, invitations controllers).
 */
@ConsoleController('users')
export class UsersController {
  constructor(
    private readonly users: UsersPresenter,
    private readonly actions: UserActionsPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Users.Read')
  list(@Console() who: ConsolePrincipal, @Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.users.list(who, query));
  }

  @Get('new')
  @ConsolePage('Users.Manage')
  showNew(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.users.showNew(who));
  }

  @Post('new')
  @ConsolePage('Users.Manage')
  create(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.users.create(who, req));
  }

  @Get(':id')
  @ConsolePage('Users.Read')
  detail(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.users.detail(who, id));
  }

  @Get(':id/disable')
  @ConsolePage('Users.Manage')
  confirmDisable(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.confirm(who, id, 'disable'));
  }

  @Post(':id/disable')
  @ConsolePage('Users.Manage')
  disable(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.disable(who, id));
  }

  @Post(':id/enable')
  @ConsolePage('Users.Manage')
  enable(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.enable(who, id));
  }

  @Post(':id/unlock')
  @ConsolePage('Users.Manage')
  unlock(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.unlock(who, id));
  }

  @Get(':id/reset-password')
  @ConsolePage('Users.Manage')
  confirmReset(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.confirm(who, id, 'reset-password'));
  }

  @Post(':id/reset-password')
  @ConsolePage('Users.Manage')
  resetPassword(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.resetPassword(who, id));
  }

  @Post(':id/reset-password/generate')
  @ConsolePage('Users.Manage')
  @StepUp()
  resetGenerated(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.resetGenerated(who, id));
  }

  @Get(':id/sections/:slug/close')
  @ConsolePage('Docs.Manage')
  confirmClose(@Console() who: ConsolePrincipal, @Param('id') id: string, @Param('slug') slug: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.confirmClose(who, id, slug));
  }

  @Post(':id/sections/:slug/close')
  @ConsolePage('Docs.Manage')
  close(@Console() who: ConsolePrincipal, @Param('id') id: string, @Param('slug') slug: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.close(who, id, slug));
  }

  @Post(':id/invitations')
  @ConsolePage('Invitations.Manage')
  invite(@Console() who: ConsolePrincipal, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.invite(who, id, req));
  }

  @Post(':id/invitations/:invitation/resend')
  @ConsolePage('Invitations.Manage')
  resend(@Console() who: ConsolePrincipal, @Param('id') id: string, @Param('invitation') invitation: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.resend(who, id, invitation));
  }

  @Get(':id/invitations/:invitation/revoke')
  @ConsolePage('Invitations.Manage')
  confirmRevoke(@Console() who: ConsolePrincipal, @Param('id') id: string, @Param('invitation') invitation: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.confirmRevoke(who, id, invitation));
  }

  @Post(':id/invitations/:invitation/revoke')
  @ConsolePage('Invitations.Manage')
  revoke(@Console() who: ConsolePrincipal, @Param('id') id: string, @Param('invitation') invitation: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.actions.revoke(who, id, invitation));
  }
}
