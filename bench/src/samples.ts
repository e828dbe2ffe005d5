import { type RunningServer, type Target, cpuSeconds, load, median, round, settings } from './harness.js';

/** One measured window on a running server: tokens a second and CPU microseconds per token. */
export interface Sample {
  tokensPerSec: number;
  cpuUs: number;
}

/** A window of `settings.durationSeconds` of `target`'s requests on a server already running. */
export async function sample(target: Target, server: RunningServer): Promise<Sample> {
  const before = cpuSeconds(server.pid);
  const result = await load(target, server, settings.durationSeconds);
  return {
    tokensPerSec: round(result['2xx'] / result.duration, 0),
    cpuUs: round(((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, result['2xx']), 0),
  };
}

/** The median rate and the median CPU per token of alternating windows. */
export function medianSample(samples: Sample[]): Sample {
  return { tokensPerSec: median(samples.map((s) => s.tokensPerSec)), cpuUs: median(samples.map((s) => s.cpuUs)) };
}

/** `measured` against `reference`: the ratio of rates and the ratio of CPU per token (higher is better for both). */
export function ratios(measured: Sample, reference: Sample): { ratio: number; ratioByCpu: number } {
  return {
    ratio: round(measured.tokensPerSec / Math.max(1, reference.tokensPerSec), 3),
    ratioByCpu: round(reference.cpuUs / Math.max(1, measured.cpuUs), 3),
  };
}
