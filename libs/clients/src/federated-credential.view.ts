import type { ClaimsMatchingExpression } from './claims-expression.js';
import type { FederatedCredential } from './federated-credential.entity.js';

export interface FederatedCredentialView {
  id: string;
  name: string;
  issuer: string;
  subject: string | null;
  claimsMatchingExpression: ClaimsMatchingExpression | null;
  audiences: string[];
  description: string;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  lastUsedFrom: string | null;
  /** When the worker disabled it as stale (token requests with it fail until it is enabled again); null: enabled. */
  disabledAt: string | null;
}

export function toFederatedCredentialView(row: FederatedCredential): FederatedCredentialView {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    subject: row.subject,
    claimsMatchingExpression:
      row.claimsExpression === null
        ? null
        : { value: row.claimsExpression, languageVersion: row.claimsExpressionVersion ?? 1 },
    audiences: row.audiences,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    lastUsedFrom: row.lastUsedFrom ?? null,
    disabledAt: row.disabledAt ? row.disabledAt.toISOString() : null,
  };
}

/** What an audit event records of a credential: everything (nothing in it is secret). */
export function federatedAuditDetails(view: FederatedCredentialView): Record<string, unknown> {
  return {
    id: view.id,
    name: view.name,
    issuer: view.issuer,
    subject: view.subject,
    claimsMatchingExpression: view.claimsMatchingExpression?.value ?? null,
    audiences: view.audiences,
  };
}
