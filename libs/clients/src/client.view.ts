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
}

export interface SecretView {
  keyId: string;
  hint: string;
  displayName: string;
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
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
  };
}
