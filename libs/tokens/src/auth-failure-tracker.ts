import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Counter } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { MetricsRegistry, sourceAddress } from '@gatehouse/http';
import { printable } from '@gatehouse/logging';
import { ClientAuthAlerts } from './client-auth-alerts.js';
import { ClientCredentialsRepository, type ClientRow } from './client-credentials.repository.js';
import { TokenRequestError, TokenRequestErrorCode } from './token-request.errors.js';

/** Failed client authentications allowed per (tenant, source address) within one window. */
export const SOURCE_FAILURE_LIMIT = 50;
export const AUTH_FAILURE_WINDOW_SECONDS = 300;
/** Failures with one client's id within a window that warn its contact (once per window). */
export const CLIENT_FAILURE_BURST = 20;

export interface FailedAuthentication {
  tenantId: string;
  /** The client id as presented (canonical form). */
  clientId: string;
  /** The client when the id names one. */
  client: ClientRow | null;
  /** The request, for its source address (read only here, on the failure path). */
  origin: IncomingMessage | undefined;
  error: TokenRequestError;
}

/**
 * What a failed client authentication costs and leaves behind. Never a lock: a correct credential
 * is always accepted, whatever failed before (a lock would let anyone who knows a client id shut
 * it out). Guessing a 256-bit secret is hopeless anyway; what remains to limit is the work:
 *
 * - per source address, at most {@link SOURCE_FAILURE_LIMIT} failures in
 *   {@link AUTH_FAILURE_WINDOW_SECONDS} are counted (one atomic upsert each, so replicas count
 *   exactly); beyond that a failure is answered 429 and costs no database work on this replica;
 * - every failure counts in `gatehouse_client_authentication_failures_total{reason}`;
 * - failures with a known client's id are counted per client; the {@link CLIENT_FAILURE_BURST}-th
 *   of a window is audited (`client.auth.failure_burst`) and mailed to the client's contact.
 */
@Injectable()
export class AuthFailureTracker {
  private readonly logger = new Logger(AuthFailureTracker.name);
  private readonly blockedSources = new Map<string, number>();
  private readonly failures: Counter<'reason'>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: ClientCredentialsRepository,
    private readonly alerts: ClientAuthAlerts,
    metrics: MetricsRegistry,
  ) {
    this.failures = new Counter({
      name: 'gatehouse_client_authentication_failures_total',
      help: 'Failed client authentications at the token endpoint, by reason',
      labelNames: ['reason'],
      registers: [metrics.registry],
    });
  }

  /** Counts the failure; the error to answer (429 once the source is over its limit, else the failure's own). */
  async record(failure: FailedAuthentication): Promise<TokenRequestError> {
    this.failures.inc({ reason: failure.error.code });
    const source = sourceAddress(failure.origin, this.config.trustProxy);
    const key = `${failure.tenantId}|${source}`;
    const now = Date.now();
    const blockedUntil = this.blockedSources.get(key);
    if (blockedUntil !== undefined && blockedUntil > now) return tooMany(blockedUntil, now);
    const [bySource, byClient] = await Promise.all([
      this.repository.recordSourceEvent(failure.tenantId, `token:${source}`, AUTH_FAILURE_WINDOW_SECONDS, SOURCE_FAILURE_LIMIT),
      failure.client
        ? this.repository.recordClientFailure(failure.tenantId, failure.clientId, AUTH_FAILURE_WINDOW_SECONDS, CLIENT_FAILURE_BURST)
        : null,
    ]);
    if (failure.client && byClient?.failures === CLIENT_FAILURE_BURST) {
      await this.alerts.burst(failure.tenantId, failure.client, CLIENT_FAILURE_BURST, AUTH_FAILURE_WINDOW_SECONDS, source);
    }
    if (bySource.failures === SOURCE_FAILURE_LIMIT) {
      this.logger.warn(`client authentication failures throttled tenant=${failure.tenantId} source=${printable(source, 64)}`);
    }
    if (bySource.failures <= SOURCE_FAILURE_LIMIT || !bySource.blockedUntil) return failure.error;
    if (this.blockedSources.size >= 10_000) this.blockedSources.clear();
    this.blockedSources.set(key, bySource.blockedUntil.getTime());
    return tooMany(bySource.blockedUntil.getTime(), now);
  }

  /** Deletes counters whose window and block are over; for a scheduled sweep. */
  purgeStale(): Promise<number> {
    return this.repository.purgeStaleThrottles(AUTH_FAILURE_WINDOW_SECONDS);
  }
}

function tooMany(until: number, now: number): TokenRequestError {
  return new TokenRequestError(
    TokenRequestErrorCode.TooManyFailures,
    'Too many failed client authentications from your address. A valid credential is still accepted; try again later.',
    { retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) },
  );
}
