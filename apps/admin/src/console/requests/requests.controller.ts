import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage } from '../frame/console.guard.js';
import { RequestsPresenter } from './requests.presenter.js';

/** `/console/requests`: the queue (Requests.Read), deciding and filing (Requests.Decide), as `/admin/v1/access-requests`. */
@ConsoleController('requests')
export class RequestsController {
  constructor(
    private readonly requests: RequestsPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Requests.Read')
  queue(@Console() who: ConsolePrincipal, @Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.requests.queue(who, query));
  }

  @Get('new')
  @ConsolePage('Requests.Decide')
  showNew(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.requests.showNew(who));
  }

  @Post('new')
  @ConsolePage('Requests.Decide')
  file(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.requests.file(who, req));
  }

  @Get(':id')
  @ConsolePage('Requests.Read')
  detail(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.requests.detail(who, id));
  }

  @Post(':id/approve')
  @ConsolePage('Requests.Decide')
  approve(@Console() who: ConsolePrincipal, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.requests.approve(who, id, req));
  }

  @Post(':id/reject')
  @ConsolePage('Requests.Decide')
  reject(@Console() who: ConsolePrincipal, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.requests.reject(who, id, req));
  }
}
