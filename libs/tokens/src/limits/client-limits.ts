import { type SourceRangeMatcher, sourceRangeMatcher } from './source-range-matcher.js';

/** A client's network restriction and token quota as the token endpoint holds them. */
export interface ClientLimits {
  /** null: from anywhere. */
  ranges: SourceRangeMatcher | null;
  /** null: no quota. */
  tokensPerHour: number | null;
}

/** The limits of a client's stored columns, parsed once; null (most clients) when it has neither. */
export function clientLimitsOf(ranges: readonly string[] | null, tokensPerHour: number | null): ClientLimits | null {
  const matcher = sourceRangeMatcher(ranges);
  const quota = tokensPerHour ?? null;
  return matcher === null && quota === null ? null : { ranges: matcher, tokensPerHour: quota };
}
