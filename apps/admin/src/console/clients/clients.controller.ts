import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage, StepUp } from '../frame/console.guard.js';
import { ClientCredentialsPresenter } from './client-credentials.presenter.js';
import { ClientHandoversPresenter } from './client-handovers.presenter.js';
import { ClientLimitsPresenter } from './client-limits.presenter.js';
import { PolicyPresenter } from '../policy/policy.presenter.js';
import { ClientsPresenter } from './clients.presenter.js';

/**
 * `/console/clients`: the list, a client's page, its scopes, credentials, handovers and state.
 * Each handler needs the permission of its REST twin (`/admin/v1/clients…`, `/handovers/{id}/revoke`);
 * every way a credential can leave — minting a secret, adding a certificate, sending a handover —
 * asks for a fresh second factor (SECURITY 57).
 */
@ConsoleController('clients')
export class ClientsController {
  constructor(
    private readonly clients: ClientsPresenter,
    private readonly credentials: ClientCredentialsPresenter,
    private readonly handovers: ClientHandoversPresenter,
    private readonly limits: ClientLimitsPresenter,
    private readonly policy: PolicyPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Clients.Read')
  list(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.clients.list(who, req.query as Record<string, unknown>));
  }

  @Get('new')
  @ConsolePage('Clients.Manage')
  showCreate(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.clients.showCreate(who));
  }

  @Post('new')
  @ConsolePage('Clients.Manage')
  create(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.clients.create(who, req));
  }

  /** The live credentials outside the tenant's credential policy (the Overview's count opens it). */
  @Get('outside-policy')
  @ConsolePage('Clients.Read')
  outsidePolicy(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.policy.flagged(who));
  }

  @Get(':clientId')
  @ConsolePage('Clients.Read')
  show(@Console() who: ConsolePrincipal, @Param('clientId') clientId: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.clients.show(who, clientId));
  }

  @Post(':clientId/scopes')
  @ConsolePage('Scopes.Assign')
  setScopes(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.clients.setScopes(who, clientId, req));
  }

  @Post(':clientId/limits')
  @ConsolePage('Scopes.Assign')
  setLimits(@Console() who: ConsolePrincipal, @Param('clientId') clientId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.limits.save(who, clientId, req));
  }

  @Get(':clientId/disable')
  @ConsolePage('Clients.Manage')
  confirmDisable(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.clients.confirmDisable(who, clientId));
  }

  @Post(':clientId/disable')
  @ConsolePage('Clients.Manage')
  disable(@Console() who: ConsolePrincipal, @Param('clientId') clientId: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.clients.disable(who, clientId));
  }

  @Post(':clientId/enable')
  @ConsolePage('Clients.Manage')
  enable(@Console() who: ConsolePrincipal, @Param('clientId') clientId: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.clients.enable(who, clientId));
  }

  @Get(':clientId/secrets/new')
  @ConsolePage('Secrets.Manage')
  showNewSecret(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.credentials.showNewSecret(who, clientId));
  }

  @Post(':clientId/secrets')
  @ConsolePage('Secrets.Manage')
  @StepUp()
  issueSecret(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.credentials.issueSecret(who, clientId, req));
  }

  @Get(':clientId/secrets/:keyId/revoke')
  @ConsolePage('Secrets.Manage')
  confirmRevokeSecret(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Param('keyId') keyId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.credentials.confirmRevokeSecret(who, clientId, keyId));
  }

  @Post(':clientId/secrets/:keyId/revoke')
  @ConsolePage('Secrets.Manage')
  revokeSecret(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Param('keyId') keyId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.credentials.revokeSecret(who, clientId, keyId));
  }

  @Get(':clientId/certificates/new')
  @ConsolePage('Secrets.Manage')
  showAddCertificate(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.credentials.showAddCertificate(who, clientId));
  }

  @Post(':clientId/certificates')
  @ConsolePage('Secrets.Manage')
  @StepUp()
  addCertificate(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.credentials.addCertificate(who, clientId, req));
  }

  @Get(':clientId/certificates/:keyId/remove')
  @ConsolePage('Secrets.Manage')
  confirmRemoveCertificate(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Param('keyId') keyId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.credentials.confirmRemoveCertificate(who, clientId, keyId));
  }

  @Post(':clientId/certificates/:keyId/remove')
  @ConsolePage('Secrets.Manage')
  removeCertificate(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Param('keyId') keyId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.credentials.removeCertificate(who, clientId, keyId));
  }

  @Get(':clientId/handovers/new')
  @ConsolePage('Secrets.Manage')
  showHandover(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.handovers.showHandover(who, clientId));
  }

  @Post(':clientId/handovers')
  @ConsolePage('Secrets.Manage')
  @StepUp()
  createHandover(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.handovers.createHandover(who, clientId, req));
  }

  @Post(':clientId/handovers/:handoverId/resend')
  @ConsolePage('Secrets.Manage')
  @StepUp()
  resendHandover(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Param('handoverId') handoverId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.handovers.resendHandover(who, clientId, handoverId));
  }

  @Get(':clientId/handovers/:handoverId/revoke')
  @ConsolePage('Secrets.Manage')
  confirmRevokeHandover(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Param('handoverId') handoverId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.handovers.confirmRevokeHandover(who, clientId, handoverId));
  }

  @Post(':clientId/handovers/:handoverId/revoke')
  @ConsolePage('Secrets.Manage')
  revokeHandover(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Param('handoverId') handoverId: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.handovers.revokeHandover(who, clientId, handoverId));
  }
}
