import { Controller, Get, Header } from '@nestjs/common';
import { STYLESHEET } from '@gatehouse/views';

/** The Web UI's one stylesheet (no inline styles: the CSP allows 'self' only). */
@Controller('assets')
export class AssetsController {
  @Get('gatehouse.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  stylesheet(): string {
    return STYLESHEET;
  }
}
