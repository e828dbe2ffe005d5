/** The kinds of credential a client can hold (DESIGN §9, §11). */
export type CredentialKind = 'secret' | 'certificate' | 'federated';
export const CREDENTIAL_KINDS: readonly CredentialKind[] = ['secret', 'certificate', 'federated'];

/** The longest a secret may live, whatever a policy says (`expiresInDays` of a new secret). */
export const MAX_SECRET_DAYS = 730;
/** The longest certificate lifetime a policy may name (ten years). */
export const MAX_CERTIFICATE_POLICY_DAYS = 3650;
export const DEFAULT_STALE_CREDENTIAL_DAYS = 90;
export const MAX_STALE_CREDENTIAL_DAYS = 3650;
const DAY_MS = 86_400_000;
/** Slack for a lifetime measured between two clocks (the row's `created_at` and the computed end). */
const SLACK_DAYS = 1 / 24;

/**
 * A tenant's credential policy (Entra's app management policy): how long new secrets and
 * certificates may live and which kinds may be added, from `effectiveFrom` on; and when a
 * credential counts as stale. `effectiveFrom` null: no policy was ever set (nothing is refused or
 * flagged).
 */
export interface CredentialPolicy {
  maxSecretLifetimeDays: number;
  /** null: certificates of any lifetime. */
  maxCertificateLifetimeDays: number | null;
  allowedCredentialKinds: CredentialKind[];
  effectiveFrom: Date | null;
  staleCredentialDays: number;
  disableStaleCredentials: boolean;
}

export const DEFAULT_CREDENTIAL_POLICY: Readonly<CredentialPolicy> = Object.freeze({
  maxSecretLifetimeDays: MAX_SECRET_DAYS,
  maxCertificateLifetimeDays: null,
  allowedCredentialKinds: [...CREDENTIAL_KINDS],
  effectiveFrom: null,
  staleCredentialDays: DEFAULT_STALE_CREDENTIAL_DAYS,
  disableStaleCredentials: false,
});

/** The rule of the policy a credential breaks, named as the policy's field. */
export type PolicyRule = 'allowedCredentialKinds' | 'maxSecretLifetimeDays' | 'maxCertificateLifetimeDays';

export interface PolicyBreach {
  rule: PolicyRule;
  /** A sentence for people: what the rule is and how the credential breaks it. */
  message: string;
}

/** An existing (or proposed) credential, as the policy sees it. */
export type PolicyCredential =
  | { kind: 'secret'; createdAt: Date; expiresAt: Date }
  | { kind: 'certificate'; notBefore: Date; notAfter: Date }
  | { kind: 'federated' };

/** Whole days, for messages. */
function days(n: number): string {
  return n === 1 ? '1 day' : `${n} days`;
}

export const KIND_LABELS: Record<CredentialKind, string> = {
  secret: 'secrets',
  certificate: 'certificates',
  federated: 'federated credentials',
};

function kindBreach(kind: CredentialKind, policy: CredentialPolicy): PolicyBreach | null {
  if (policy.allowedCredentialKinds.includes(kind)) return null;
  const allowed = policy.allowedCredentialKinds.map((k) => KIND_LABELS[k]).join(', ') || 'none';
  return {
    rule: 'allowedCredentialKinds',
    message: `The tenant's credential policy does not allow ${KIND_LABELS[kind]} (allowed: ${allowed}).`,
  };
}

/** A secret that lives `lifetimeDays`, measured against the policy. */
export function secretLifetimeBreach(lifetimeDays: number, policy: CredentialPolicy): PolicyBreach | null {
  if (lifetimeDays <= policy.maxSecretLifetimeDays + SLACK_DAYS) return null;
  return {
    rule: 'maxSecretLifetimeDays',
    message: `The tenant's credential policy allows secrets of at most ${days(policy.maxSecretLifetimeDays)}; this one lives ${days(Math.round(lifetimeDays))}.`,
  };
}

/** A certificate valid for `lifetimeDays`, measured against the policy. */
export function certificateLifetimeBreach(lifetimeDays: number, policy: CredentialPolicy): PolicyBreach | null {
  const max = policy.maxCertificateLifetimeDays;
  if (max === null || lifetimeDays <= max + SLACK_DAYS) return null;
  return {
    rule: 'maxCertificateLifetimeDays',
    message: `The tenant's credential policy allows certificates valid for at most ${days(max)}; this one is valid for ${days(Math.round(lifetimeDays))}.`,
  };
}

/**
 * Whether, and why, a credential is outside the policy: the first rule it breaks, or null. Used
 * for credentials that exist (they are flagged, never broken) and, through
 * {@link newCredentialBreach}, for ones about to be created. A tenant that never set a policy
 * flags nothing.
 */
export function outsidePolicy(credential: PolicyCredential, policy: CredentialPolicy): PolicyBreach | null {
  if (policy.effectiveFrom === null) return null;
  const byKind = kindBreach(credential.kind, policy);
  if (byKind) return byKind;
  switch (credential.kind) {
    case 'secret':
      return secretLifetimeBreach((credential.expiresAt.getTime() - credential.createdAt.getTime()) / DAY_MS, policy);
    case 'certificate':
      return certificateLifetimeBreach((credential.notAfter.getTime() - credential.notBefore.getTime()) / DAY_MS, policy);
    case 'federated':
      return null;
  }
}

/** Whether the policy refuses new credentials at `now` (it does from `effectiveFrom` on). */
export function policyInEffect(policy: CredentialPolicy, now: Date = new Date()): boolean {
  return policy.effectiveFrom !== null && policy.effectiveFrom.getTime() <= now.getTime();
}

/** The rule a new credential would break, or null; nothing is refused before `effectiveFrom`. */
export function newCredentialBreach(credential: PolicyCredential, policy: CredentialPolicy, now: Date = new Date()): PolicyBreach | null {
  return policyInEffect(policy, now) ? outsidePolicy(credential, policy) : null;
}

/** The lifetime of a new secret when none is asked for: the default, or the policy's maximum if shorter. */
export function defaultSecretDays(policy: CredentialPolicy, fallback: number, now: Date = new Date()): number {
  return policyInEffect(policy, now) ? Math.min(fallback, policy.maxSecretLifetimeDays) : fallback;
}
