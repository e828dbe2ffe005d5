import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { WebSession } from './web-session.js';

/**
 * `/session/alive`: the pages' "Stay signed in" before an idle session ends. 204 while the
 * session lives (resolving it renewed its idle time), 401 once it has ended; nothing else.
 */
@Controller('session')
export class SessionAliveController {
  constructor(private readonly web: WebSession) {}

  @Get('alive')
  async alive(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    res.status((await this.web.alive(req)) ? 204 : 401).end();
  }
}
