import type { CredentialKind } from '../policy/credential-policy.rules.js';

/** The kinds of credential the report lists: the policy's kinds (CREDENTIAL_KINDS). */
export type CredentialKindName = CredentialKind;
/** `disabled`: disabled as stale (reversible); revoked and expired come first. */
export type CredentialState = 'active' | 'expired' | 'revoked' | 'disabled';

/** One credential of the tenant, as the credential report lists it (never a secret's value or hash). */
export interface CredentialReportEntry {
  clientId: string;
  clientName: string;
  kind: CredentialKindName;
  /** The secret's or certificate's key id; the federated credential's id. */
  keyId: string;
  /** The secret's description, the certificate's display name, the federated credential's name. */
  displayName: string;
  /** A secret's first characters. */
  hint?: string;
  /** A certificate's SHA-1 thumbprint (upper-case hex). */
  thumbprint?: string;
  /** A federated credential's issuer and subject (or its claims expression). */
  issuer?: string;
  subject?: string;
  createdAt: string;
  /** Null for a federated credential (it does not expire). */
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastUsedFrom: string | null;
  state: CredentialState;
  /** When it was disabled as stale; null: not disabled. */
  disabledAt: string | null;
}

/** The report's filters; every one optional, all that are given must hold. */
export interface CredentialReportFilter {
  kind?: CredentialKindName;
  state?: CredentialState;
  /** Not revoked and expiring (or expired) within this many days from now. */
  expiringWithinDays?: number;
  /** No token was ever issued with it. */
  neverUsed?: boolean;
  /** No token for this many days: last used that long ago, or never and created that long ago. */
  unusedForDays?: number;
  /** Live (not revoked, not expired) and outside the tenant's credential policy, as the Overview counts them. */
  outsidePolicy?: boolean;
}

export const CREDENTIAL_STATES: readonly CredentialState[] = ['active', 'expired', 'revoked', 'disabled'];
export const MAX_REPORT_DAYS = 3650;
