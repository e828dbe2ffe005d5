import type { ApiClient, ClientState } from './api-client.entity.js';
import type { ClientSecret } from './client-secret.entity.js';

export interface ClientView {
  clientId: string;
  /** The client's object id: `sub` and `oid` of its tokens (what another tenant's federated credential names). */
  objectId: string;
  displayName: string;
  state: ClientState;
  ownerUserId: string | null;
  contactEmail: string | null;
  /** The partner organisation the client belongs to, if any. */
  organisationId: string | null;
  createdAt: string;
  updatedAt: string;
  scopes: string[];
  /** Where its token requests may come from (CIDRs); null: anywhere. */
  allowedSourceRanges: string[] | null;
  /** Tokens per hour (per identity replica); null: no quota. */
  tokensPerHour: number | null;
  /** Each granted scope with when it was granted and last carried by a token (the single-client read only). */
  scopeGrants?: ScopeGrantView[];
}

/** A granted scope and its use (least privilege: `unused` after {@link UNUSED_SCOPE_DAYS} days without a token). */
export interface ScopeGrantView {
  scope: string;
  grantedAt: string;
  lastUsedAt: string | null;
  unused: boolean;
}

/** A grant no token carried for this long (or never, granted this long ago) is marked unused. */
export const UNUSED_SCOPE_DAYS = 90;

/** Unused: no token carried it for {@link UNUSED_SCOPE_DAYS} days, or none ever did and it is that old. */
export function isUnusedGrant(grantedAt: Date, lastUsedAt: Date | null, now = Date.now()): boolean {
  const since = (lastUsedAt ?? grantedAt).getTime();
  return now - since > UNUSED_SCOPE_DAYS * 86_400_000;
}

export interface SecretView {
  keyId: string;
  hint: string;
  displayName: string;
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedFrom: string | null;
  /** When the worker disabled it as stale (token requests with it fail until it is enabled again); null: enabled. */
  disabledAt: string | null;
}

/** The one response that carries a secret's value. */
export interface IssuedSecret {
  keyId: string;
  hint: string;
  secretText: string;
  expiresAt: string;
  displayName: string;
}

export function toClientView(client: ApiClient, scopes: string[]): ClientView {
  return {
    clientId: client.clientId,
    objectId: client.id,
    displayName: client.displayName,
    state: client.state,
    ownerUserId: client.ownerUserId,
    contactEmail: client.contactEmail,
    organisationId: client.organisationId ?? null,
    createdAt: client.createdAt.toISOString(),
    updatedAt: client.updatedAt.toISOString(),
    scopes,
    allowedSourceRanges: client.allowedSourceRanges ?? null,
    tokensPerHour: client.tokensPerHour ?? null,
  };
}

export function toSecretView(secret: ClientSecret): SecretView {
  return {
    keyId: secret.keyId,
    hint: secret.hint,
    displayName: secret.displayName,
    expiresAt: secret.expiresAt.toISOString(),
    revokedAt: secret.revokedAt ? secret.revokedAt.toISOString() : null,
    createdAt: secret.createdAt.toISOString(),
    lastUsedAt: secret.lastUsedAt ? secret.lastUsedAt.toISOString() : null,
    lastUsedFrom: secret.lastUsedFrom ?? null,
    disabledAt: secret.disabledAt ? secret.disabledAt.toISOString() : null,
  };
}
