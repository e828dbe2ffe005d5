import { All, Controller, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { printable } from '@gatehouse/logging';
import { TokenRequestError, TokenRequestErrorCode } from '@gatehouse/tokens';
import { EntraErrorFilter } from './entra-error.filter.js';
import { TokenEndpoint } from './token.endpoint.js';

/**
 * `POST /{tenant}/oauth2/v2.0/token` and v1's `/{tenant}/oauth2/token` (the fast path serves the
 * exact paths first; these routes take the variants Express also matches, such as a trailing
 * slash); any other method gets Entra's 405.
 */
@Controller(':tenant/oauth2')
@UseFilters(EntraErrorFilter)
export class TokenController {
  constructor(private readonly endpoint: TokenEndpoint) {}

  @Post('v2.0/token')
  token(@Param('tenant') tenant: string, @Req() req: Request, @Res() res: Response): void {
    this.endpoint.handle(req, res, tenant);
  }

  /** Entra's v1 endpoint: `resource=` instead of `scope`, the same authentication and errors. */
  @Post('token')
  tokenV1(@Param('tenant') tenant: string, @Req() req: Request, @Res() res: Response): void {
    this.endpoint.handle(req, res, tenant, undefined, true);
  }

  @All(['v2.0/token', 'token'])
  otherMethod(@Req() req: Request): never {
    throw new TokenRequestError(
      TokenRequestErrorCode.MethodNotAllowed,
      `The endpoint only accepts POST requests. Received a ${printable(req.method, 16)} request.`,
    );
  }

  @All(['v2.0/authorize', 'authorize'])
  authorize(): never {
    throw new TokenRequestError(
      TokenRequestErrorCode.UnsupportedResponseType,
      'This authority issues tokens only with the client credentials grant; it has no authorization endpoint.',
    );
  }
}
