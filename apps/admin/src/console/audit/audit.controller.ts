import { Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage } from '../frame/console.guard.js';
import { AuditPresenter } from './audit.presenter.js';

/** `/console/audit`: the audit log with filters kept in the URL, paging both ways, one event in full, CSV export. */
@ConsoleController('audit')
export class AuditConsoleController {
  constructor(
    private readonly audit: AuditPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Audit.Read')
  list(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.audit.list(who, req));
  }

  @Get('export.csv')
  @ConsolePage('Audit.Read')
  export(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.audit.export(who, req));
  }

  @Get(':id')
  @ConsolePage('Audit.Read')
  event(@Console() who: ConsolePrincipal, @Param('id') id: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.audit.event(who, id));
  }
}
