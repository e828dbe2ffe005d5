import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { TokenErrorResponder } from './token-error.responder.js';

/** Answers every failure of the OAuth controllers (discovery, JWKS, 405s) with Entra's envelope. */
@Catch()
export class EntraErrorFilter implements ExceptionFilter {
  constructor(private readonly responder: TokenErrorResponder) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    this.responder.respond(
      req,
      host.switchToHttp().getResponse<Response>(),
      exception,
      String(req.params?.tenant ?? '-'),
    );
  }
}
