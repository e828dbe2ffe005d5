import { All, Controller, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { TokenRequestError, TokenRequestErrorCode } from '@gatehouse/tokens';
import { EntraErrorFilter } from './entra-error.filter.js';
import { TokenEndpoint } from './token.endpoint.js';

/**
 * `POST /{tenant}/oauth2/v2.0/token` (the fast path serves the exact path first; this route takes
 * the variants Express also matches, such as a trailing slash); any other method gets Entra's 405.
 */
@Controller(':tenant/oauth2/v2.0')
@UseFilters(EntraErrorFilter)
export class TokenController {
  constructor(private readonly endpoint: TokenEndpoint) {}

  @Post('token')
  token(@Param('tenant') tenant: string, @Req() req: Request, @Res() res: Response): void {
    this.endpoint.handle(req, res, tenant);
  }

  @All('token')
  otherMethod(@Req() req: Request): never {
    throw new TokenRequestError(
      TokenRequestErrorCode.MethodNotAllowed,
      `The endpoint only accepts POST requests. Received a ${req.method.slice(0, 16)} request.`,
    );
  }

  @All('authorize')
  authorize(): never {
    throw new TokenRequestError(
      TokenRequestErrorCode.UnsupportedResponseType,
      'This authority issues tokens only with the client credentials grant; it has no authorization endpoint.',
    );
  }
}
