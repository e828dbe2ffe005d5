import pg from 'pg';
import type { Provisioned, RunningServer, Target } from './harness.js';
import { type Sample, medianSample, ratios } from './samples.js';

/** Tokens with 50 allowed source ranges on the client against none, same server, same run (target: ≥ 0.97×). */
export interface SourceRangeFigures {
  ranges: number;
  noneTokensPerSec: number;
  rangesTokensPerSec: number;
  cpuUsPerTokenNone: number;
  cpuUsPerTokenRanges: number;
  ratio: number;
  ratioByCpu: number;
}

const RANGES = 50;

/**
 * 48 IPv4 ranges the load generator is not in, IPv6 loopback, then IPv4 loopback last: every
 * request scans the whole list before it is admitted, the dearest case. `withLoopback` false: a
 * list that refuses it (to prove the check runs).
 */
export function rangeList(withLoopback: boolean): string[] {
  const ranges = Array.from({ length: RANGES - 2 }, (_, i) => `198.18.${i}.0/24`);
  return withLoopback ? [...ranges, '::1/128', '127.0.0.0/8'] : ranges;
}

export function printSourceRanges(figures: SourceRangeFigures): SourceRangeFigures {
  console.log(
    `  gatehouse with ${figures.ranges} allowed source ranges on the client: ${figures.rangesTokensPerSec} tokens/s vs ${figures.noneTokensPerSec} with none ` +
      `(${figures.ratio}×; by CPU per token ${figures.ratioByCpu}×: ${figures.cpuUsPerTokenRanges} vs ${figures.cpuUsPerTokenNone} µs)`,
  );
  return figures;
}

/** Sets the client's ranges and announces the change, as the admin API does (every token cache drops the client). */
export async function setRanges(provisioned: Provisioned, ranges: string[] | null): Promise<void> {
  const client = new pg.Client({ connectionString: provisioned.databaseUrl });
  await client.connect();
  try {
    await client.query(`UPDATE api_clients SET allowed_source_ranges = $2 WHERE client_id = $1`, [provisioned.clientId, ranges]);
    await client.query(`SELECT pg_notify('gatehouse_changes', $1)`, [`client:${provisioned.tenantId}:${provisioned.clientId}`]);
  } finally {
    await client.end();
  }
}

async function status(target: Target, server: RunningServer): Promise<number> {
  const response = await fetch(server.url + target.tokenPath, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: target.body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** Waits until the server answers `wanted` (a change reaches its cache through a notification). */
export async function until(target: Target, server: RunningServer, wanted: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await status(target, server)) === wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`source ranges: the token endpoint never answered ${wanted}`);
}

/** Windows with {@link RANGES} ranges on the client against windows with none, alternated on one server. */
export function sourceRangeFigures(none: Sample[], ranged: Sample[]): SourceRangeFigures {
  const plain = medianSample(none);
  const limited = medianSample(ranged);
  return {
    ranges: RANGES,
    noneTokensPerSec: plain.tokensPerSec,
    rangesTokensPerSec: limited.tokensPerSec,
    cpuUsPerTokenNone: plain.cpuUs,
    cpuUsPerTokenRanges: limited.cpuUs,
    ...ratios(limited, plain),
  };
}
