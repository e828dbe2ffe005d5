import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage, Preview, StepUp } from '../frame/console.guard.js';
import { ClientFederationPresenter } from './client-federation.presenter.js';

/**
 * `/console/clients/{clientId}/federated-credentials…`: the scenario forms, their preview, adding
 * (a fresh second factor: a way in) and removing — the permissions of the REST twin
 * (`/admin/v1/clients/{clientId}/federated-credentials`).
 */
@ConsoleController('clients')
export class ClientFederationController {
  constructor(
    private readonly federation: ClientFederationPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get(':clientId/federated-credentials/new')
  @ConsolePage('Secrets.Manage')
  showNew(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Query('scenario') scenario: unknown,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.federation.showScenario(who, clientId, scenario));
  }

  @Post(':clientId/federated-credentials/preview')
  @ConsolePage('Secrets.Manage')
  @Preview()
  preview(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.federation.preview(who, clientId, req));
  }

  @Post(':clientId/federated-credentials')
  @ConsolePage('Secrets.Manage')
  @StepUp()
  add(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.federation.add(who, clientId, req));
  }

  @Get(':clientId/federated-credentials/:id/remove')
  @ConsolePage('Secrets.Manage')
  confirmRemove(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Param('id') id: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.federation.confirmRemove(who, clientId, id));
  }

  @Post(':clientId/federated-credentials/:id/remove')
  @ConsolePage('Secrets.Manage')
  remove(
    @Console() who: ConsolePrincipal,
    @Param('clientId') clientId: string,
    @Param('id') id: string,
    @Res() res: Response,
  ): Promise<void> {
    return this.out.send(res, who, this.federation.remove(who, clientId, id));
  }
}
