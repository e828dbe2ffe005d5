import { type Measurement, type Target, measure, medianMeasurement, round, settings } from './harness.js';
import type { Algorithm } from './protocol.js';

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

/**
 * DESIGN §12's last use costs one map entry per token: Gatehouse with tracking on (the default)
 * against the same server with `LAST_USE_TRACKING=0`, in alternating rounds on fresh processes, so
 * a slow minute of the machine hits both.
 */
export async function measureLastUse(gatehouse: Target, alg: Algorithm): Promise<LastUseFigures> {
  const off: Target = { ...gatehouse, env: { ...gatehouse.env, LAST_USE_TRACKING: '0' } };
  const on: Measurement[] = [];
  const without: Measurement[] = [];
  for (let i = 0; i < settings.rounds; i++) {
    on.push(await measure(gatehouse, alg));
    without.push(await measure(off, alg));
  }
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
