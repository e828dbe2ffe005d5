import { Get, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage, StepUp } from '../frame/console.guard.js';
import { CredentialEnablingPresenter } from './credential-enabling.presenter.js';

/**
 * `/console/clients/{clientId}/{secrets|certificates|federated-credentials}/{key}/enable`: a
 * credential disabled as stale, enabled again — asked once, then a fresh second factor (it opens a
 * way in again, SECURITY 57); the permission of the REST twin (Secrets.Manage).
 */
@ConsoleController('clients')
export class CredentialEnablingController {
  constructor(
    private readonly enabling: CredentialEnablingPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get(':clientId/secrets/:key/enable')
  @ConsolePage('Secrets.Manage')
  confirmSecret(@Console() who: ConsolePrincipal, @Param('clientId') clientId: string, @Param('key') key: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.enabling.confirm(who, clientId, 'secrets', key));
  }

  @Post(':clientId/secrets/:key/enable')
  @ConsolePage('Secrets.Manage')
  @StepUp()
  enableSecret(@Console() who: ConsolePrincipal, @Param('clientId') clientId: string, @Param('key') key: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.enabling.enable(who, clientId, 'secrets', key));
  }

  @Get(':clientId/certificates/:key/enable')
  @ConsolePage('Secrets.Manage')
  confirmCertificate(@Console() who: ConsolePrincipal, @Param('clientId') clientId: string, @Param('key') key: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.enabling.confirm(who, clientId, 'certificates', key));
  }

  @Post(':clientId/certificates/:key/enable')
  @ConsolePage('Secrets.Manage')
  @StepUp()
  enableCertificate(@Console() who: ConsolePrincipal, @Param('clientId') clientId: string, @Param('key') key: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.enabling.enable(who, clientId, 'certificates', key));
  }

  @Get(':clientId/federated-credentials/:key/enable')
  @ConsolePage('Secrets.Manage')
  confirmFederated(@Console() who: ConsolePrincipal, @Param('clientId') clientId: string, @Param('key') key: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.enabling.confirm(who, clientId, 'federated-credentials', key));
  }

  @Post(':clientId/federated-credentials/:key/enable')
  @ConsolePage('Secrets.Manage')
  @StepUp()
  enableFederated(@Console() who: ConsolePrincipal, @Param('clientId') clientId: string, @Param('key') key: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.enabling.enable(who, clientId, 'federated-credentials', key));
  }
}
