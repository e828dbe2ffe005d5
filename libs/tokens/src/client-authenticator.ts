import { timingSafeEqual } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SecretHasher } from '@gatehouse/crypto';
import { announceChange } from '@gatehouse/database';
import { ClientCredentialsRepository } from './client-credentials.repository.js';
import { type ClientSnapshot, CredentialDirectory } from './credential-directory.js';
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

/**
 * Client authentication with a secret. Unknown client and wrong secret take the same path (one
 * HMAC, a constant-time comparison against a dummy, one counted failure) and the same status.
 */
@Injectable()
export class ClientAuthenticator {
  private readonly logger = new Logger(ClientAuthenticator.name);

  constructor(
    private readonly directory: CredentialDirectory,
    private readonly repository: ClientCredentialsRepository,
    private readonly hasher: SecretHasher,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async authenticate(input: AuthenticationInput): Promise<ClientSnapshot> {
    const snapshot = await this.directory.client(input.tenantId, input.clientId);
    const now = Date.now();
    if (snapshot?.blockedUntil && snapshot.blockedUntil.getTime() > now) {
      // Every refused attempt is counted, so the count stays exact whichever replica answers.
      await this.countFailure(input, now);
      throw this.tooMany(input, snapshot.blockedUntil, now);
    }
    const outcome = this.checkSecret(snapshot, input.clientSecret, now);
    if (outcome !== 'valid' || !snapshot) {
      await this.countFailure(input, now);
      throw this.failure(input, !snapshot ? 'unknown' : outcome === 'expired' ? 'expired' : 'invalid');
    }
    const { state, ownerUserId, ownerStatus } = snapshot.client;
    if (state === 'disabled' || (ownerUserId && ownerStatus !== 'active')) {
      throw new TokenRequestError(TokenRequestErrorCode.DisabledClient, `Application '${input.clientId}' is disabled.`, {
        basic: input.basic,
      });
    }
    if (state === 'awaiting_scopes') {
      throw new TokenRequestError(
        TokenRequestErrorCode.UnauthorizedClient,
        `Application '${input.clientId}' is not assigned to a role for any application.`,
      );
    }
    return snapshot;
  }

  private checkSecret(snapshot: ClientSnapshot | null, secret: string, now: number): 'valid' | 'expired' | 'invalid' {
    const presented = this.hasher.hash(secret);
    const candidates = snapshot && snapshot.secrets.length > 0 ? snapshot.secrets : [{ hash: DUMMY_HASH, expiresAt: new Date(0) }];
    let outcome: 'valid' | 'expired' | 'invalid' = 'invalid';
    for (const candidate of candidates) {
      const equal = candidate.hash.length === presented.length && timingSafeEqual(candidate.hash, presented);
      if (equal && snapshot) outcome = candidate.expiresAt.getTime() > now ? 'valid' : outcome === 'valid' ? 'valid' : 'expired';
    }
    return outcome;
  }

  private async countFailure(input: AuthenticationInput, now: number): Promise<void> {
    const result = await this.repository.recordFailure(
      input.tenantId,
      input.clientId.slice(0, 256),
      AUTH_FAILURE_WINDOW_SECONDS,
      AUTH_FAILURE_LIMIT,
    );
    if (result.failures === AUTH_FAILURE_LIMIT) {
      // Every replica drops its cached snapshot and so sees the block from the next request on.
      await announceChange(this.dataSource.manager, 'client', input.tenantId, input.clientId.toLowerCase());
      this.logger.warn(`client ${input.clientId} of tenant ${input.tenantId} blocked after ${result.failures} failures`);
    }
    if (result.failures > AUTH_FAILURE_LIMIT && result.blockedUntil) throw this.tooMany(input, result.blockedUntil, now);
  }

  private tooMany(input: AuthenticationInput, until: Date, now: number): TokenRequestError {
    return new TokenRequestError(TokenRequestErrorCode.TooManyFailures, 'Too many failed client authentications. Try again later.', {
      retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now) / 1000)),
    });
  }

  private failure(input: AuthenticationInput, outcome: 'expired' | 'invalid' | 'unknown'): TokenRequestError {
    const details = { basic: input.basic };
    switch (outcome) {
      case 'unknown':
        return new TokenRequestError(
          TokenRequestErrorCode.UnknownClient,
          `Application with identifier '${input.clientId.slice(0, 100)}' was not found in the directory.`,
          details,
        );
      case 'expired':
        return new TokenRequestError(
          TokenRequestErrorCode.ExpiredSecret,
          `The provided client secret keys for app '${input.clientId}' are expired.`,
          details,
        );
      case 'invalid':
        return new TokenRequestError(
          TokenRequestErrorCode.InvalidSecret,
          `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${input.clientId}'.`,
          details,
        );
    }
  }
}
