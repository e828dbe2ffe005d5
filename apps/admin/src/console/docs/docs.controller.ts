import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleController } from '../frame/console-controller.js';
import { Console, type ConsolePrincipal } from '../frame/console-principal.js';
import { ConsoleResponder } from '../frame/console-responder.js';
import { ConsolePage } from '../frame/console.guard.js';
import { DocsPresenter } from './docs.presenter.js';

/** `/console/docs`: documentation sections, their Markdown editor with preview, who can read each. */
@ConsoleController('docs')
export class DocsConsoleController {
  constructor(
    private readonly docs: DocsPresenter,
    private readonly out: ConsoleResponder,
  ) {}

  @Get()
  @ConsolePage('Docs.Manage')
  list(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.docs.list(who, req));
  }

  @Get('new')
  @ConsolePage('Docs.Manage')
  showNew(@Console() who: ConsolePrincipal, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.docs.showNew(who));
  }

  @Post('new')
  @ConsolePage('Docs.Manage')
  create(@Console() who: ConsolePrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.docs.create(who, req));
  }

  @Get(':slug')
  @ConsolePage('Docs.Manage')
  section(@Console() who: ConsolePrincipal, @Param('slug') slug: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.docs.section(who, slug));
  }

  @Post(':slug')
  @ConsolePage('Docs.Manage')
  update(@Console() who: ConsolePrincipal, @Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.docs.update(who, slug, req));
  }

  @Get(':slug/delete')
  @ConsolePage('Docs.Manage')
  confirmDelete(@Console() who: ConsolePrincipal, @Param('slug') slug: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.docs.confirmDelete(who, slug));
  }

  @Post(':slug/delete')
  @ConsolePage('Docs.Manage')
  remove(@Console() who: ConsolePrincipal, @Param('slug') slug: string, @Res() res: Response): Promise<void> {
    return this.out.send(res, who, this.docs.remove(who, slug));
  }
}
