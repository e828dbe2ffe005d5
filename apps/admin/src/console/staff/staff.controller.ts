import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage, StepUp } from '../frame/console.guard.js';
import { StaffInvitationPresenter } from './staff-invitation.presenter.js';
import { StaffPresenter } from './staff.presenter.js';

/**
 * `/console/staff`: Administrators invite staff, resend or revoke an invitation not used yet,
 * change roles, reset a person's second factor.
 */
@ConsoleController('staff')
export class StaffController {
  constructor(
    private readonly staff: StaffPresenter,
    private readonly invitations: StaffInvitationPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Tenant.Manage')
  list(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.staff.list(who, req.query as Record<string, unknown>));
  }

  @Get('invite')
  @ConsolePage('Tenant.Manage')
  showInvite(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.staff.showInvite(who));
  }

  @Post('invite')
  @ConsolePage('Tenant.Manage')
  @StepUp()
  invite(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.staff.invite(who, req));
  }

  @Get(':id')
  @ConsolePage('Tenant.Manage')
  member(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.staff.member(who, id));
  }

  @Post(':id/roles')
  @ConsolePage('Tenant.Manage')
  @StepUp()
  setRoles(@Console() who: ConsolePrincipal, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.staff.setRoles(who, id, req));
  }

  @Post(':id/invitation/resend')
  @ConsolePage('Tenant.Manage')
  @StepUp()
  resendInvitation(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.invitations.resend(who, id));
  }

  @Get(':id/invitation/revoke')
  @ConsolePage('Tenant.Manage')
  confirmRevokeInvitation(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.invitations.confirmRevoke(who, id));
  }

  @Post(':id/invitation/revoke')
  @ConsolePage('Tenant.Manage')
  revokeInvitation(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.invitations.revoke(who, id));
  }

  @Get(':id/reset-mfa')
  @ConsolePage('Tenant.Manage')
  confirmReset(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.staff.confirmReset(who, id));
  }

  @Post(':id/reset-mfa')
  @ConsolePage('Tenant.Manage')
  @StepUp()
  reset(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.staff.reset(who, id));
  }
}
