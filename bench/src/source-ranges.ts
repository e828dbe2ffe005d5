import pg from 'pg';
import {
  type Provisioned,
  type RunningServer,
  type Target,
  cpuSeconds,
  load,
  median,
  round,
  settings,
  smoke,
  startServer,
  stopServer,
  verifyOneToken,
} from './harness.js';
import type { Algorithm } from './protocol.js';

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
function rangeList(withLoopback: boolean): string[] {
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
async function setRanges(provisioned: Provisioned, ranges: string[] | null): Promise<void> {
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
async function until(target: Target, server: RunningServer, wanted: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await status(target, server)) === wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`source ranges: the token endpoint never answered ${wanted}`);
}

async function sample(target: Target, server: RunningServer): Promise<{ tokensPerSec: number; cpuUs: number }> {
  const before = cpuSeconds(server.pid);
  const result = await load(target, server, settings.durationSeconds);
  return {
    tokensPerSec: round(result['2xx'] / result.duration, 0),
    cpuUs: round(((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, result['2xx']), 0),
  };
}

/**
 * The client without ranges and with {@link RANGES} of them, in alternating rounds on one fresh
 * server (a slow minute of the shared machine hits both), each after a warm-up. A list without
 * loopback is set once first: the token endpoint must refuse, which proves the check is on the
 * path measured. The client has no ranges again afterwards, whatever happened.
 */
export async function measureSourceRanges(provisioned: Provisioned, gatehouse: Target, alg: Algorithm): Promise<SourceRangeFigures> {
  const server = await startServer(gatehouse);
  try {
    await verifyOneToken(gatehouse, server, alg);
    await setRanges(provisioned, rangeList(false));
    await until(gatehouse, server, 400);
    const none: Array<{ tokensPerSec: number; cpuUs: number }> = [];
    const ranged: Array<{ tokensPerSec: number; cpuUs: number }> = [];
    for (let i = 0; i < settings.rounds; i++) {
      await setRanges(provisioned, null);
      await until(gatehouse, server, 200);
      if (!smoke) await load(gatehouse, server, settings.warmupSeconds);
      none.push(await sample(gatehouse, server));
      await setRanges(provisioned, rangeList(true));
      await until(gatehouse, server, 200);
      if (!smoke) await load(gatehouse, server, settings.warmupSeconds);
      ranged.push(await sample(gatehouse, server));
    }
    const plain = { tokensPerSec: median(none.map((s) => s.tokensPerSec)), cpuUs: median(none.map((s) => s.cpuUs)) };
    const limited = { tokensPerSec: median(ranged.map((s) => s.tokensPerSec)), cpuUs: median(ranged.map((s) => s.cpuUs)) };
    return {
      ranges: rangeList(true).length,
      noneTokensPerSec: plain.tokensPerSec,
      rangesTokensPerSec: limited.tokensPerSec,
      cpuUsPerTokenNone: plain.cpuUs,
      cpuUsPerTokenRanges: limited.cpuUs,
      ratio: round(limited.tokensPerSec / Math.max(1, plain.tokensPerSec), 3),
      ratioByCpu: round(plain.cpuUs / Math.max(1, limited.cpuUs), 3),
    };
  } finally {
    await setRanges(provisioned, null);
    await stopServer(server);
  }
}
