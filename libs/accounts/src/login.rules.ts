/** Consecutive failures that lock an account for {@link LOCK_SECONDS}. */
export const FAILURES_PER_LOCK = 5;
export const LOCK_SECONDS = 15 * 60;
/** NIST 800-63B-4 §3.2.2: at most 100 consecutive failures ever; then a long lock (24 h). */
export const MAX_CONSECUTIVE_FAILURES = 100;
export const LONG_LOCK_SECONDS = 24 * 60 * 60;
/**
 * Failed logins from one source address (any accounts) within {@link SOURCE_WINDOW_SECONDS} that
 * block the address for the rest of the window: a password spray spreads its guesses over many
 * accounts so that none of them locks, and this is what stops it.
 */
export const SOURCE_FAILURE_LIMIT = 30;
export const SOURCE_WINDOW_SECONDS = 15 * 60;

/**
 * Lock after the n-th consecutive failure: a growing short lock (1 s, 2 s) on the 3rd and 4th of
 * each round of five, 15 minutes on the 5th, 24 hours from the 100th. A success resets the count.
 */
export function lockSecondsAfter(failures: number): number {
  if (failures >= MAX_CONSECUTIVE_FAILURES) return LONG_LOCK_SECONDS;
  const inRound = ((failures - 1) % FAILURES_PER_LOCK) + 1;
  if (inRound === FAILURES_PER_LOCK) return LOCK_SECONDS;
  return inRound >= 3 ? 2 ** (inRound - 3) : 0;
}
