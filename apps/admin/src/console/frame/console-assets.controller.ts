import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CONSOLE_SCRIPT, STYLESHEET } from '@gatehouse/views';

/** The one stylesheet and the one small script (copy buttons) of the console. */
@Controller('console/assets')
@ApiExcludeController()
export class ConsoleAssetsController {
  @Get('gatehouse.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  stylesheet(): string {
    return STYLESHEET;
  }

  @Get('console.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  script(): string {
    return CONSOLE_SCRIPT;
  }
}
