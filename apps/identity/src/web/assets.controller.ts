import { Controller, Get, Header } from '@nestjs/common';
import { COPY_SCRIPT, SESSION_SCRIPT, STYLESHEET, SUBMIT_ONCE_SCRIPT } from '@gatehouse/views';

/** The Web UI's one stylesheet and one small script (copy buttons); no inline styles or scripts: the CSP allows 'self' only. */
@Controller('assets')
export class AssetsController {
  @Get('gatehouse.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  stylesheet(): string {
    return STYLESHEET;
  }

  @Get('gatehouse.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  script(): string {
    return `${COPY_SCRIPT}${SUBMIT_ONCE_SCRIPT}${SESSION_SCRIPT}`;
  }
}
