import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { ClientCredentialsService, TokenRequestError, type TokenRequestInput } from '@gatehouse/tokens';
import { TokenErrorResponder } from './token-error.responder.js';
import { readTokenRequest } from './token-request.reader.js';

/**
 * The HTTP adapter of the token endpoint on plain Node request/response objects: read the request,
 * delegate to the grant, answer with no-store. Used by the fast path and by the Express route.
 */
@Injectable()
export class TokenEndpoint {
  /** What helmet would add that matters for a JSON answer (the fast path runs ahead of helmet). */
  private readonly securityHeaders: Record<string, string>;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clientCredentials: ClientCredentialsService,
    private readonly errors: TokenErrorResponder,
  ) {
    this.securityHeaders = { 'x-content-type-options': 'nosniff' };
    if (config.publicUrl.startsWith('https:'))
      this.securityHeaders['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  }

  async handle(req: IncomingMessage, res: ServerResponse, tenant: string): Promise<void> {
    let input: TokenRequestInput | undefined;
    try {
      input = await readTokenRequest(req, tenant);
      const body = JSON.stringify(await this.clientCredentials.issue(input));
      res.writeHead(200, {
        ...this.securityHeaders,
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
        pragma: 'no-cache',
      });
      res.end(body);
    } catch (error) {
      if (error instanceof TokenRequestError) {
        error.details.tenantId ??= tenant.slice(0, 100);
        error.details.clientId ??= input?.clientId?.slice(0, 100);
        error.details.basic ??= input?.basic;
      }
      this.errors.respond(req, res, error, tenant);
    }
  }
}
