import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { isDatabaseUnavailable } from '@gatehouse/database';
import { printable, printableLine } from '@gatehouse/logging';
import { TokenRequestError } from '@gatehouse/tokens';
import {
  type EntraError,
  SERVER_ERROR,
  UNAVAILABLE,
  correlationIdOf,
  entraEnvelope,
  entraErrorFor,
  traceIdOf,
} from './entra-error.js';
import { RefusalTally } from './refusal-tally.js';

interface Ids {
  traceId: string;
  correlationId: string;
  publicUrl: string;
}

/**
 * Turns any failure of the OAuth endpoints into Entra's envelope on a plain Node response (Express
 * and the token fast path both use it) and writes the security log line: tenant, client id,
 * AADSTS code, trace id, correlation id — never a secret or the body. Request input (tenant,
 * client id, anything quoted in a message) reaches the answer and the log only through
 * {@link printable}: unprintable characters replaced, length capped.
 *
 * While the database is down, refusals are not logged one by one (a busy endpoint would write
 * thousands of lines a second): the first is, then one line per interval with the count.
 */
@Injectable()
export class TokenErrorResponder {
  private readonly logger = new Logger('TokenEndpoint');
  private readonly unavailable = new RefusalTally(10_000, (count, since) =>
    this.logger.warn(`database unavailable: ${count} token endpoint request(s) answered 503 since ${since.toISOString()}`),
  );

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  respond(req: IncomingMessage, res: ServerResponse, exception: unknown, tenant = '-'): void {
    const ids: Ids = { traceId: traceIdOf(req), correlationId: correlationIdOf(req), publicUrl: this.config.publicUrl };
    if (!(exception instanceof TokenRequestError)) return this.fault(res, exception, ids);
    const mapped = entraErrorFor(exception.code);
    const { details } = exception;
    this.logger.warn(
      `token request refused tenant=${printable(details.tenantId ?? tenant)} client_id=${printable(details.clientId ?? '-')} ` +
        `code=AADSTS${mapped.code} (${exception.code}) trace_id=${ids.traceId} correlation_id=${ids.correlationId}`,
    );
    const headers: Record<string, string> = {};
    if (mapped.status === 401 && details.basic)
      headers['www-authenticate'] = 'Basic realm="Gatehouse", charset="UTF-8"';
    if (mapped.status === 429) headers['retry-after'] = String(details.retryAfterSeconds ?? 60);
    if (mapped.status === 405) headers.allow = 'POST';
    this.send(res, mapped, exception.message, ids, headers);
  }

  /** 503 while Postgres is unreachable, else 500; a generic message, the details in the log only. */
  private fault(res: ServerResponse, exception: unknown, ids: Ids): void {
    if (isDatabaseUnavailable(exception)) {
      this.unavailable.count();
      return this.send(res, UNAVAILABLE, 'A transient error has occurred. Please try again.', ids, {
        'retry-after': '5',
      });
    }
    this.logger.error(`internal error trace_id=${ids.traceId}: ${(exception as Error)?.stack ?? String(exception)}`);
    this.send(res, SERVER_ERROR, 'An internal error occurred.', ids, {});
  }

  private send(
    res: ServerResponse,
    mapped: EntraError,
    message: string,
    ids: Ids,
    headers: Record<string, string>,
  ): void {
    if (res.headersSent) return void res.end();
    const body = JSON.stringify(entraEnvelope(mapped, printableLine(message), ids));
    res.writeHead(mapped.status, {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'x-content-type-options': 'nosniff',
      'x-request-id': requestIdOf(res, ids.traceId),
    });
    res.end(body);
  }
}

/** The request id already on the response (Express path), or the fast path's (kept on the request). */
function requestIdOf(res: ServerResponse, traceId: string): string {
  const set = res.getHeader('x-request-id');
  if (set !== undefined) return String(set);
  const id: unknown = (res.req as (IncomingMessage & { id?: unknown }) | undefined)?.id;
  return typeof id === 'string' ? id : traceId;
}
