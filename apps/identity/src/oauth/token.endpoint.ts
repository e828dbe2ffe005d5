import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { printable } from '@gatehouse/logging';
import { MetricsRegistry, type Tally } from '@gatehouse/http';
import {
  ClientCredentialsService,
  TokenRequestError,
  type TokenRequestInput,
  type TokenResponse,
} from '@gatehouse/tokens';
import { TokenErrorResponder } from './token-error.responder.js';
import { checkTokenRequestHead, readRawBody, tokenRequestFrom } from './token-request.reader.js';

/**
 * The HTTP adapter of the token endpoint on plain Node request/response objects: read the request,
 * delegate to the grant, answer with no-store. Used by the fast path and by the Express route.
 *
 * Written with callbacks, not async/await: when the caches hold everything, a token is issued in
 * the same tick the body arrives, with no promise in between (this is the benchmarked hot path).
 */
@Injectable()
export class TokenEndpoint {
  /** The headers of every successful answer, as `writeHead` takes them (name, value, name, value…). */
  private readonly successHeaders: string[];
  private readonly issued: Tally;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clientCredentials: ClientCredentialsService,
    private readonly errors: TokenErrorResponder,
    metrics: MetricsRegistry,
  ) {
    this.issued = metrics.tokensIssued;
    // What helmet would add that matters for a JSON answer (the fast path runs ahead of helmet).
    this.successHeaders = [
      'content-type',
      'application/json; charset=utf-8',
      'cache-control',
      'no-store',
      'pragma',
      'no-cache',
      'x-content-type-options',
      'nosniff',
    ];
    if (config.publicUrl.startsWith('https:'))
      this.successHeaders.push('strict-transport-security', 'max-age=31536000; includeSubDomains');
  }

  /**
   * Answers the token request. `requestId` is the `x-request-id` to send when the caller has not
   * set that header on `res` already (the fast path sets it here, with the other headers); `v1`
   * for the v1 endpoint (`resource=` instead of `scope`).
   */
  handle(req: IncomingMessage, res: ServerResponse, tenant: string, requestId?: string, v1 = false): void {
    try {
      checkTokenRequestHead(req);
    } catch (error) {
      return this.fail(req, res, error, tenant, undefined);
    }
    readRawBody(req, (error, body) => {
      if (error !== null) return this.fail(req, res, error, tenant, undefined);
      let input: TokenRequestInput | undefined;
      try {
        input = tokenRequestFrom(req, tenant, body, v1);
        const issued = this.clientCredentials.issue(input);
        if (!(issued instanceof Promise)) return this.succeed(res, issued, requestId);
        const known = input;
        issued.then(
          (response) => this.succeed(res, response, requestId),
          (failure: unknown) => this.fail(req, res, failure, tenant, known),
        );
      } catch (failure) {
        this.fail(req, res, failure, tenant, input);
      }
    });
  }

  private succeed(res: ServerResponse, response: TokenResponse, requestId: string | undefined): void {
    const body = responseJson(response);
    const length = response.v1 === undefined ? body.length : Buffer.byteLength(body);
    const headers = this.successHeaders.concat('content-length', String(length));
    if (requestId !== undefined) headers.push('x-request-id', requestId);
    res.writeHead(200, headers);
    res.end(body);
    this.issued.count++;
  }

  private fail(
    req: IncomingMessage,
    res: ServerResponse,
    error: unknown,
    tenant: string,
    input: TokenRequestInput | undefined,
  ): void {
    if (error instanceof TokenRequestError) {
      error.details.tenantId ??= printable(tenant);
      error.details.clientId ??= input?.clientId === undefined ? undefined : printable(input.clientId);
      error.details.basic ??= input?.basic;
    }
    this.errors.respond(req, res, error, tenant);
  }
}

/**
 * The answer's JSON, written out: what `JSON.stringify` gives for these four fields, without its
 * scan of the token for characters to escape (a compact JWS is base64url and dots; the lifetimes
 * are integers), so the text is ASCII and its length is its byte length.
 */
export function responseJson(response: TokenResponse): string {
  if (response.v1 !== undefined) return v1ResponseJson(response, response.v1);
  return `{"token_type":"${response.token_type}","expires_in":${response.expires_in},"ext_expires_in":${response.ext_expires_in},"access_token":"${response.access_token}"}`;
}

/**
 * Entra's v1 endpoint's answer: every number a string, and `expires_on`, `not_before` (epoch
 * seconds) and `resource` as asked for (ADAL-era clients compute the expiry from `expires_on`).
 */
function v1ResponseJson(response: TokenResponse, v1: NonNullable<TokenResponse['v1']>): string {
  return JSON.stringify({
    token_type: response.token_type,
    expires_in: String(response.expires_in),
    ext_expires_in: String(response.ext_expires_in),
    expires_on: String(v1.expiresOn),
    not_before: String(v1.notBefore),
    resource: v1.resource,
    access_token: response.access_token,
  });
}
