import { CredentialPolicyError, CredentialPolicyErrorCode } from './credential-policy.errors.js';
import {
  CREDENTIAL_KINDS,
  type CredentialKind,
  type CredentialPolicy,
  DEFAULT_CREDENTIAL_POLICY,
  MAX_CERTIFICATE_POLICY_DAYS,
  MAX_SECRET_DAYS,
  MAX_STALE_CREDENTIAL_DAYS,
} from './credential-policy.rules.js';

/** A policy as a PUT carries it; a field left out takes its default (effectiveFrom: now). */
export interface CredentialPolicyInput {
  maxSecretLifetimeDays?: number;
  maxCertificateLifetimeDays?: number | null;
  allowedCredentialKinds?: string[];
  effectiveFrom?: Date | string;
  staleCredentialDays?: number;
  disableStaleCredentials?: boolean;
}

function invalid(field: string, message: string): CredentialPolicyError {
  return new CredentialPolicyError(CredentialPolicyErrorCode.Invalid, message, field);
}

function wholeDays(field: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw invalid(field, `${field} must be a whole number of days from 1 to ${max}.`);
  }
  return value;
}

function kinds(value: unknown): CredentialKind[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid('allowedCredentialKinds', `allowedCredentialKinds must name at least one of ${CREDENTIAL_KINDS.join(', ')}.`);
  }
  const unknown = value.filter((kind) => !CREDENTIAL_KINDS.includes(kind as CredentialKind));
  if (unknown.length) {
    throw invalid('allowedCredentialKinds', `allowedCredentialKinds may name only ${CREDENTIAL_KINDS.join(', ')} (not ${unknown.map(String).join(', ')}).`);
  }
  return CREDENTIAL_KINDS.filter((kind) => value.includes(kind));
}

/** Years a date may name (SECURITY 59: time values from a request are range-checked). */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(9999, 11, 31);

function date(value: unknown, now: Date): Date {
  if (value === undefined) return now;
  const parsed = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(parsed.getTime()) || parsed.getTime() < EARLIEST || parsed.getTime() > LATEST) {
    throw invalid('effectiveFrom', 'effectiveFrom must be a date and time (ISO 8601) between 2000 and 9999.');
  }
  return parsed;
}

/** The whole policy a PUT asks for, checked field by field (the first bad one is named). */
export function policyFromInput(input: CredentialPolicyInput, now: Date = new Date()): CredentialPolicy {
  const certificate = input.maxCertificateLifetimeDays;
  const disable = input.disableStaleCredentials ?? DEFAULT_CREDENTIAL_POLICY.disableStaleCredentials;
  if (typeof disable !== 'boolean') throw invalid('disableStaleCredentials', 'disableStaleCredentials must be true or false.');
  return {
    maxSecretLifetimeDays: wholeDays('maxSecretLifetimeDays', input.maxSecretLifetimeDays ?? MAX_SECRET_DAYS, MAX_SECRET_DAYS),
    maxCertificateLifetimeDays:
      certificate === undefined || certificate === null
        ? null
        : wholeDays('maxCertificateLifetimeDays', certificate, MAX_CERTIFICATE_POLICY_DAYS),
    allowedCredentialKinds: kinds(input.allowedCredentialKinds ?? [...CREDENTIAL_KINDS]),
    effectiveFrom: date(input.effectiveFrom, now),
    staleCredentialDays: wholeDays(
      'staleCredentialDays',
      input.staleCredentialDays ?? DEFAULT_CREDENTIAL_POLICY.staleCredentialDays,
      MAX_STALE_CREDENTIAL_DAYS,
    ),
    disableStaleCredentials: disable,
  };
}

/** The policy as the API and the audit log show it. */
export interface CredentialPolicyView {
  maxSecretLifetimeDays: number;
  maxCertificateLifetimeDays: number | null;
  allowedCredentialKinds: CredentialKind[];
  effectiveFrom: string | null;
  staleCredentialDays: number;
  disableStaleCredentials: boolean;
}

export function toCredentialPolicyView(policy: CredentialPolicy): CredentialPolicyView {
  return {
    maxSecretLifetimeDays: policy.maxSecretLifetimeDays,
    maxCertificateLifetimeDays: policy.maxCertificateLifetimeDays,
    allowedCredentialKinds: [...policy.allowedCredentialKinds],
    effectiveFrom: policy.effectiveFrom?.toISOString() ?? null,
    staleCredentialDays: policy.staleCredentialDays,
    disableStaleCredentials: policy.disableStaleCredentials,
  };
}
