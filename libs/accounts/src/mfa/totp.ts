import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes of the step before and after now are accepted too (clock skew), never more. */
export const TOTP_SKEW_STEPS = 1;
const SEED_BYTES = 20;

export function newTotpSeed(): Buffer {
  return Buffer.from(new Secret({ size: SEED_BYTES }).bytes);
}

function totp(seed: Buffer, label = 'user', issuer = 'Gatehouse'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: new Secret({ buffer: Uint8Array.from(seed).buffer }),
  });
}

/** The seed as base32, for typing into an app by hand. */
export function base32Of(seed: Buffer): string {
  return totp(seed).secret.base32;
}

/** The `otpauth://` URI a QR code carries: issuer "Gatehouse (tenant)", label the username. */
export function totpUri(seed: Buffer, issuer: string, username: string): string {
  return totp(seed, username, issuer).toString();
}

/** The time step of a code valid now (± {@link TOTP_SKEW_STEPS}), or `null`. */
export function matchingStep(seed: Buffer, code: string, now: number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(seed).validate({ token: code, timestamp: now, window: TOTP_SKEW_STEPS });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The code of a given moment (tests and the enrolment check compute codes like an app does). */
export function totpCode(seed: Buffer, at: number = Date.now()): string {
  return totp(seed).generate({ timestamp: at });
}
