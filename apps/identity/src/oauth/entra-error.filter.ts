import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, type ExceptionFilter, Inject, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { TokenRequestError } from '@gatehouse/tokens';
import { SERVER_ERROR, correlationIdOf, entraEnvelope, entraErrorFor } from './entra-error.js';

/** Answers every failure of the OAuth endpoints with Entra's envelope; logs it without any secret. */
@Catch()
export class EntraErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('TokenEndpoint');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const ids = { traceId: randomUUID(), correlationId: correlationIdOf(req), publicUrl: this.config.publicUrl };
    if (!(exception instanceof TokenRequestError)) {
      this.logger.error(`internal error trace_id=${ids.traceId}: ${(exception as Error)?.stack ?? String(exception)}`);
      this.send(res, SERVER_ERROR.status, entraEnvelope(SERVER_ERROR, 'An internal error occurred.', ids));
      return;
    }
    const mapped = entraErrorFor(exception.code);
    const { details } = exception;
    this.logger.warn(
      `token request refused tenant=${details.tenantId ?? req.params?.tenant ?? '-'} client_id=${details.clientId ?? '-'} ` +
        `code=AADSTS${mapped.code} (${exception.code}) trace_id=${ids.traceId} correlation_id=${ids.correlationId}`,
    );
    if (mapped.status === 401 && details.basic) res.setHeader('WWW-Authenticate', 'Basic realm="Gatehouse", charset="UTF-8"');
    if (mapped.status === 429) res.setHeader('Retry-After', String(details.retryAfterSeconds ?? 60));
    if (mapped.status === 405) res.setHeader('Allow', 'POST');
    this.send(res, mapped.status, entraEnvelope(mapped, exception.message, ids));
  }

  private send(res: Response, status: number, body: object): void {
    if (res.headersSent) return void res.end();
    res.status(status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(body);
  }
}
