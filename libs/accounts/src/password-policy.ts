import { readFileSync } from 'node:fs';

/** Length limits in Unicode code points (NIST SP 800-63B-4, single-factor passwords). */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 128;

export enum PasswordRejection {
  TooShort = 'too_short',
  TooLong = 'too_long',
  Common = 'common',
  ContextWord = 'context_word',
  Mismatch = 'mismatch',
}

export interface PasswordContext {
  tenantSlug: string;
  username: string;
}

export type PasswordVerdict = { ok: true } | { ok: false; reason: PasswordRejection; message: string };

let common: ReadonlySet<string> | undefined;

/** The shipped list of common passwords (lower-cased), read once. */
export function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter(Boolean),
  );
  return common;
}

/** Strips trailing digits and punctuation: `passwordpassword123!` is as weak as its stem. */
function stem(value: string): string {
  return value.replace(/[\d\p{P}\p{S}\s]+$/u, '');
}

/**
 * Checks a new password against the policy: length in code points, no composition rules, not a
 * common password, no context word. Pure apart from the list, which the caller may pass.
 */
export function checkPasswordPolicy(
  password: string,
  context: PasswordContext,
  list: ReadonlySet<string> = commonPasswords(),
): PasswordVerdict {
  const length = [...password.normalize('NFC')].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return reject(PasswordRejection.TooShort, `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`);
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return reject(PasswordRejection.TooLong, `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`);
  }
  const lower = password.normalize('NFC').toLowerCase();
  if (list.has(lower) || list.has(stem(lower)) || list.has(stem(lower).replace(/^(.+?)\1+$/u, '$1'))) {
    return reject(PasswordRejection.Common, 'This password is on the list of commonly used passwords.');
  }
  const words = [context.username, context.tenantSlug, 'gatehouse']
    .map((w) => w.toLowerCase())
    .filter((w) => w.length >= 3);
  const found = words.find((word) => lower.includes(word));
  if (found) {
    return reject(
      PasswordRejection.ContextWord,
      `The password must not contain "${found}" (your username, the organisation or this service).`,
    );
  }
  return { ok: true };
}

/** Both entries of a "new password" and "confirm" pair must match exactly. */
export function checkConfirmation(password: string, confirmation: string): PasswordVerdict {
  return password === confirmation
    ? { ok: true }
    : reject(PasswordRejection.Mismatch, 'The two new passwords do not match.');
}

function reject(reason: PasswordRejection, message: string): PasswordVerdict {
  return { ok: false, reason, message };
}
