import {
  type ArgumentsHost,
  Body,
  Catch,
  Controller,
  type ExceptionFilter,
  HttpCode,
  Param,
  Post,
  Req,
  UseFilters,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { type LeakReportReceipt, SecretLeakError, SecretLeakErrorCode, SecretLeakService } from '@gatehouse/tokens';

function statusOf(code: SecretLeakErrorCode): number {
  switch (code) {
    case SecretLeakErrorCode.InvalidReport:
      return 400;
    case SecretLeakErrorCode.UnknownTenant:
      return 404;
    case SecretLeakErrorCode.TooManyReports:
      return 429;
    default: {
      const unmapped: never = code;
      throw new Error(`unmapped ${String(unmapped)}`);
    }
  }
}

/** `{error, error_description}` for a refused report; anything else goes on to the app's handling. */
@Catch(SecretLeakError)
class SecretLeakErrorFilter implements ExceptionFilter {
  catch(error: SecretLeakError, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (error.retryAfterSeconds) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    res.status(statusOf(error.code)).setHeader('Cache-Control', 'no-store').json({ error: error.code, error_description: error.message });
  }
}

/** `POST /{tenant}/secret-scanning/report`: public; the same answer whether anything matched or not. */
@Controller(':tenant/secret-scanning')
@UseFilters(SecretLeakErrorFilter)
export class SecretScanningController {
  constructor(private readonly leaks: SecretLeakService) {}

  @Post('report')
  @HttpCode(202)
  report(@Param('tenant') tenant: string, @Body() body: unknown, @Req() req: Request): Promise<LeakReportReceipt> {
    return this.leaks.report(tenant, body, req.ip ?? 'unknown');
  }
}
