import { randomInt } from 'node:crypto';

/** How many recovery codes a person holds after enrolment or regeneration. */
export const RECOVERY_CODE_COUNT = 10;
/** No 0/O, 1/I/L: codes are read off paper. 31 symbols, ten of them: 49 bits each. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 10;

/** Fresh codes as shown to the person, `ABCDE-FGHJK`. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const raw = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/** A typed code as it is hashed: upper case, without spaces or dashes; `null` if it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  return code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}
