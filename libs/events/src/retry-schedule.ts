/** How deliveries are retried (§13); tests shorten it. */
export interface RetrySettings {
  /** Waits after the 1st, 2nd, … failed attempt; the last one repeats. */
  delaysMs: readonly number[];
  /** Each wait is drawn within ± this share of it. */
  jitter: number;
  /** A delivery still failing this long after it was written is given up and its subscription marked failing. */
  giveUpAfterMs: number;
  /** A `Retry-After` longer than this is cut to it. */
  maxRetryAfterMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** About 5 s, 30 s, 2 min, 10 min, 30 min, then hourly, each ±20 %, for 3 days. */
export const DEFAULT_RETRY: RetrySettings = {
  delaysMs: [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR],
  jitter: 0.2,
  giveUpAfterMs: 72 * HOUR,
  maxRetryAfterMs: 6 * HOUR,
};

/**
 * The wait before the next attempt after `failures` failed ones: the endpoint's `Retry-After`
 * when it gave one (seconds or an HTTP date), else the schedule's step with jitter.
 */
export function nextDelayMs(failures: number, settings: RetrySettings, retryAfter?: string, random = Math.random): number {
  const asked = retryAfterMs(retryAfter);
  if (asked !== undefined) return Math.min(asked, settings.maxRetryAfterMs);
  const steps = settings.delaysMs;
  const base = steps[Math.min(Math.max(failures, 1), steps.length) - 1] ?? HOUR;
  return Math.round(base * (1 - settings.jitter + 2 * settings.jitter * random()));
}

/** `Retry-After` as milliseconds from now, or `undefined` when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d{1,9}$/.test(value.trim())) return Number(value.trim()) * SECOND;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
