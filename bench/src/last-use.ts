import { type Measurement, type Target, medianMeasurement, round } from './harness.js';

export interface LastUseFigures {
  /** tokens/s with last-use tracking on (the default) and off, the same server in the same run. */
  onTokensPerSec: number;
  offTokensPerSec: number;
  /** on ÷ off (target ≥ 0.97). */
  ratio: number;
  cpuUsPerTokenOn: number;
  cpuUsPerTokenOff: number;
  /** off ÷ on CPU per token: the same ratio, robust against a busy machine. */
  ratioByCpu: number;
  roundsOn: number[];
  roundsOff: number[];
}

/** Gatehouse with `LAST_USE_TRACKING=0`: measured in the ES256 rounds right after Gatehouse itself. */
export function withoutLastUse(gatehouse: Target): Target {
  return { ...gatehouse, env: { ...gatehouse.env, LAST_USE_TRACKING: '0' } };
}

/**
 * DESIGN §12's last use costs one map entry per token: Gatehouse with tracking on (the default)
 * against the same server with `LAST_USE_TRACKING=0`, both measured in every ES256 round on fresh
 * processes one after the other, so a slow minute of the machine hits both.
 */
export function lastUseFrom(on: Measurement[], without: Measurement[]): LastUseFigures {
  const a = medianMeasurement(on);
  const b = medianMeasurement(without);
  return {
    onTokensPerSec: a.result.tokensPerSec,
    offTokensPerSec: b.result.tokensPerSec,
    ratio: b.result.tokensPerSec > 0 ? round(a.result.tokensPerSec / b.result.tokensPerSec, 3) : 0,
    cpuUsPerTokenOn: a.cpuUsPerToken,
    cpuUsPerTokenOff: b.cpuUsPerToken,
    ratioByCpu: a.cpuUsPerToken > 0 ? round(b.cpuUsPerToken / a.cpuUsPerToken, 3) : 0,
    roundsOn: on.map((m) => m.result.tokensPerSec),
    roundsOff: without.map((m) => m.result.tokensPerSec),
  };
}

export function describeLastUse(f: LastUseFigures): string {
  return (
    `${f.onTokensPerSec} tokens/s with last-use tracking, ${f.offTokensPerSec} without ` +
    `(${f.ratio}×; by CPU per token ${f.ratioByCpu}×: ${f.cpuUsPerTokenOn} vs ${f.cpuUsPerTokenOff} µs)`
  );
}
