import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { SecretHasher } from '@gatehouse/crypto';
import { printable } from '@gatehouse/logging';
import { AuthFailureTracker } from './auth-failure-tracker.js';
import type { ClientSnapshot, SecretRow } from './client-credentials.repository.js';
import { canonicalClientId } from './credential-directory.js';
import { TokenRequestError, TokenRequestErrorCode } from './token-request.errors.js';

const DUMMY_SECRET = { hash: Buffer.alloc(32, 0xa5).toString('latin1'), expiresAtMs: 0 };
/** Where a stored hash (kept as a latin1 string) is written for the comparison: no Buffer per request. */
const storedBytes = Buffer.alloc(32);

export interface AuthenticationInput {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  basic: boolean;
  /** The HTTP request, read only when a failure is counted (its source address). */
  origin?: IncomingMessage;
}

type SecretOutcome = SecretRow | 'expired' | 'invalid';

/**
 * Client authentication with a secret. Unknown client and wrong secret take the same path (one
 * HMAC, a constant-time comparison against a dummy, one counted failure) and so the same time;
 * their answers differ only as Entra's do (400 unauthorized_client 700016 for an unknown client,
 * 401 invalid_client 7000215 for a wrong secret). A correct secret is never refused because of
 * failures before it; failures are counted and throttled per source address by
 * {@link AuthFailureTracker}.
 */
@Injectable()
export class ClientAuthenticator {
  constructor(
    private readonly hasher: SecretHasher,
    private readonly failures: AuthFailureTracker,
  ) {}

  /**
   * The secret that authenticates the enabled client, given its snapshot as the directory has it
   * (null for an unknown client id). Synchronous when the secret is right (the hot path) or the
   * client is disabled; a failure that counts is a promise that rejects once it is counted. Every
   * failure is a {@link TokenRequestError}.
   */
  authenticate(input: AuthenticationInput, snapshot: ClientSnapshot | null): SecretRow | Promise<never> {
    const outcome = this.checkSecret(snapshot, input.clientSecret, Date.now());
    if (!snapshot || typeof outcome === 'string') {
      return this.refuse(
        input,
        snapshot,
        failure(input, !snapshot ? 'unknown' : outcome === 'expired' ? 'expired' : 'invalid'),
      );
    }
    assertEnabled(snapshot, input.basic);
    return outcome;
  }

  /** Counts a failed authentication (by any method), then rejects with the answer to give. */
  async refuse(
    input: { tenantId: string; clientId: string; origin?: IncomingMessage },
    snapshot: ClientSnapshot | null,
    error: TokenRequestError,
  ): Promise<never> {
    throw await this.failures.record({
      tenantId: input.tenantId,
      clientId: canonicalClientId(input.clientId),
      client: snapshot?.client ?? null,
      origin: input.origin,
      error,
    });
  }

  /** One HMAC and one constant-time comparison per stored hash (a dummy one when there is none). */
  private checkSecret(snapshot: ClientSnapshot | null, secret: string, now: number): SecretOutcome {
    const presented = this.hasher.hash(secret);
    const candidates = snapshot && snapshot.secrets.length > 0 ? snapshot.secrets : [DUMMY_SECRET];
    let outcome: SecretOutcome = 'invalid';
    for (const candidate of candidates) {
      // A hash of another length (none is stored) never equals the presented SHA-256.
      const equal =
        candidate.hash.length === storedBytes.length &&
        storedBytes.write(candidate.hash, 'latin1') === storedBytes.length &&
        timingSafeEqual(storedBytes, presented);
      if (!equal || !snapshot) continue;
      if (candidate.expiresAtMs > now) outcome = candidate;
      else if (outcome === 'invalid') outcome = 'expired';
    }
    return outcome;
  }
}

/** A disabled client, or one whose owner is not active: Entra's 400 unauthorized_client 7000112. */
export function assertEnabled(snapshot: ClientSnapshot, basic: boolean): void {
  const { state, ownerUserId, ownerStatus } = snapshot.client;
  if (state === 'disabled' || (ownerUserId && ownerStatus !== 'active')) {
    throw new TokenRequestError(
      TokenRequestErrorCode.DisabledClient,
      `Application '${snapshot.client.clientId}' is disabled.`,
      { basic },
    );
  }
}

/** The answer to an unknown client id: Entra's wording, the id made printable. */
export function unknownClient(clientId: string, details: { basic?: boolean } = {}): TokenRequestError {
  return new TokenRequestError(
    TokenRequestErrorCode.UnknownClient,
    `Application with identifier '${printable(clientId)}' was not found in the directory.`,
    details,
  );
}

function failure(input: AuthenticationInput, outcome: 'expired' | 'invalid' | 'unknown'): TokenRequestError {
  const details = { basic: input.basic };
  const clientId = printable(input.clientId);
  switch (outcome) {
    case 'unknown':
      return unknownClient(input.clientId, details);
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
