import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage, StepUp } from '../frame/console.guard.js';
import { WebhooksPresenter } from './webhooks.presenter.js';

/** `/console/webhooks`: Administrators create webhooks (step-up), read the delivery log, test, redeliver, rotate (step-up), delete. */
@ConsoleController('webhooks')
export class WebhooksConsoleController {
  constructor(
    private readonly webhooks: WebhooksPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Tenant.Manage')
  list(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.webhooks.list(who, req));
  }

  @Get('new')
  @ConsolePage('Tenant.Manage')
  showNew(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, Promise.resolve(this.webhooks.showNew(who)));
  }

  @Post()
  @ConsolePage('Tenant.Manage')
  @StepUp()
  create(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.webhooks.create(who, req));
  }

  @Get(':id')
  @ConsolePage('Tenant.Manage')
  detail(@Console() who: ConsolePrincipal, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.webhooks.detail(who, id, req));
  }

  @Post(':id/rotate-secret')
  @ConsolePage('Tenant.Manage')
  @StepUp()
  rotate(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.webhooks.rotate(who, id));
  }

  @Post(':id/test')
  @ConsolePage('Tenant.Manage')
  test(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.webhooks.test(who, id));
  }

  @Post(':id/enable')
  @ConsolePage('Tenant.Manage')
  enable(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.webhooks.enable(who, id));
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @ConsolePage('Tenant.Manage')
  redeliver(@Console() who: ConsolePrincipal, @Param('id') id: string, @Param('deliveryId') deliveryId: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.webhooks.redeliver(who, id, deliveryId));
  }

  @Get(':id/delete')
  @ConsolePage('Tenant.Manage')
  confirmDelete(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.webhooks.confirmDelete(who, id));
  }

  @Post(':id/delete')
  @ConsolePage('Tenant.Manage')
  remove(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.webhooks.remove(who, id));
  }
}
