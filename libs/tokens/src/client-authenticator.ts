import { timingSafeEqual } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SecretHasher } from '@gatehouse/crypto';
import { announceChange } from '@gatehouse/database';
import { ClientCredentialsRepository, type ClientSnapshot } from './client-credentials.repository.js';
import { canonicalClientId } from './credential-directory.js';
import { TokenRequestError, TokenRequestErrorCode } from './token-request.errors.js';

/** Failed authentications allowed per (tenant, client id) within one window. */
export const AUTH_FAILURE_LIMIT = 20;
export const AUTH_FAILURE_WINDOW_SECONDS = 300;

const DUMMY_HASH = Buffer.alloc(32, 0xa5);

export interface AuthenticationInput {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  basic: boolean;
}

type SecretOutcome = 'valid' | 'expired' | 'invalid';

/**
 * Client authentication with a secret. Unknown client and wrong secret take the same path (one
 * HMAC, a constant-time comparison against a dummy, one counted failure) and the same status.
 *
 * Throttling (SECURITY line 16): every failure is counted per (tenant, client id) by one atomic
 * upsert, so parallel attempts on any number of replicas are counted exactly. The 20th failure in
 * a 5-minute window blocks that client id until the window ends; while blocked, every attempt —
 * even one with the right secret — gets 429 and is counted, and a success never resets the count.
 * Otherwise the block would still answer "right or wrong" and an attacker's burst would slip past
 * the limit. The price: whoever knows a client id can keep it blocked (at most 5 minutes after
 * they stop); client ids are not secret, so operators watch the security log for such blocks.
 */
@Injectable()
export class ClientAuthenticator {
  private readonly logger = new Logger(ClientAuthenticator.name);

  constructor(
    private readonly repository: ClientCredentialsRepository,
    private readonly hasher: SecretHasher,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * The authenticated, enabled client, given its snapshot as the directory has it (null for an
   * unknown client id). Synchronous when the secret is right (the hot path) or the client is
   * disabled; a failure that counts against the throttle is a promise that rejects once it is
   * counted. Every failure is a {@link TokenRequestError}.
   */
  authenticate(input: AuthenticationInput, snapshot: ClientSnapshot | null): ClientSnapshot | Promise<never> {
    const now = Date.now();
    if (snapshot?.blockedUntil && snapshot.blockedUntil.getTime() > now) {
      return this.refuse(input, now, this.tooMany(snapshot.blockedUntil, now));
    }
    const outcome = this.checkSecret(snapshot, input.clientSecret, now);
    if (!snapshot || outcome !== 'valid') {
      return this.refuse(
        input,
        now,
        this.failure(input, !snapshot ? 'unknown' : outcome === 'expired' ? 'expired' : 'invalid'),
      );
    }
    const { state, ownerUserId, ownerStatus } = snapshot.client;
    if (state === 'disabled' || (ownerUserId && ownerStatus !== 'active')) {
      throw new TokenRequestError(
        TokenRequestErrorCode.DisabledClient,
        `Application '${snapshot.client.clientId}' is disabled.`,
        {
          basic: input.basic,
        },
      );
    }
    return snapshot;
  }

  /** Deletes throttle rows whose window and block are over; for a scheduled sweep. */
  purgeStaleThrottles(): Promise<number> {
    return this.repository.purgeStaleThrottles(AUTH_FAILURE_WINDOW_SECONDS);
  }

  /** One HMAC and one constant-time comparison per stored hash (a dummy one when there is none). */
  private checkSecret(snapshot: ClientSnapshot | null, secret: string, now: number): SecretOutcome {
    const presented = this.hasher.hash(secret);
    const candidates =
      snapshot && snapshot.secrets.length > 0 ? snapshot.secrets : [{ hash: DUMMY_HASH, expiresAt: new Date(0) }];
    let outcome: SecretOutcome = 'invalid';
    for (const candidate of candidates) {
      const equal = candidate.hash.length === presented.length && timingSafeEqual(candidate.hash, presented);
      if (!equal || !snapshot) continue;
      if (candidate.expiresAt.getTime() > now) outcome = 'valid';
      else if (outcome === 'invalid') outcome = 'expired';
    }
    return outcome;
  }

  /** Counts the failure (which may itself turn into 429 at the limit), then fails with `error`. */
  private async refuse(input: AuthenticationInput, now: number, error: TokenRequestError): Promise<never> {
    await this.countFailure(input, now);
    throw error;
  }

  private async countFailure(input: AuthenticationInput, now: number): Promise<void> {
    const clientId = canonicalClientId(input.clientId);
    const result = await this.repository.recordFailure(
      input.tenantId,
      clientId,
      AUTH_FAILURE_WINDOW_SECONDS,
      AUTH_FAILURE_LIMIT,
    );
    if (result.failures === AUTH_FAILURE_LIMIT) {
      // Every replica drops its cached snapshot and so sees the block from the next request on.
      await announceChange(this.dataSource.manager, 'client', input.tenantId, clientId);
      this.logger.warn(
        `client authentication blocked tenant=${input.tenantId} client_id=${clientId.slice(0, 100)} failures=${result.failures}`,
      );
    }
    if (result.failures > AUTH_FAILURE_LIMIT && result.blockedUntil) throw this.tooMany(result.blockedUntil, now);
  }

  private tooMany(until: Date, now: number): TokenRequestError {
    return new TokenRequestError(
      TokenRequestErrorCode.TooManyFailures,
      'Too many failed client authentications. Try again later.',
      {
        retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now) / 1000)),
      },
    );
  }

  private failure(input: AuthenticationInput, outcome: 'expired' | 'invalid' | 'unknown'): TokenRequestError {
    const details = { basic: input.basic };
    const clientId = input.clientId.slice(0, 100);
    switch (outcome) {
      case 'unknown':
        return new TokenRequestError(
          TokenRequestErrorCode.UnknownClient,
          `Application with identifier '${clientId}' was not found in the directory.`,
          details,
        );
      case 'expired':
        return new TokenRequestError(
          TokenRequestErrorCode.ExpiredSecret,
          `The provided client secret keys for app '${clientId}' are expired.`,
          details,
        );
      case 'invalid':
        return new TokenRequestError(
          TokenRequestErrorCode.InvalidSecret,
          `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
          details,
        );
    }
  }
}
