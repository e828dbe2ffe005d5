import autocannon, { type AutocannonResult } from 'autocannon';
import {
  PROMPT_END,
  type RunningServer,
  type Target,
  cpuSeconds,
  failures,
  round,
  rssMb,
  settings,
  smoke,
  startServer,
  stopServer,
} from './harness.js';
import { type PacedTraffic, pacedTrafficInChild } from './server-windows.js';
import { type PacedResult, failuresText } from './paced-load.js';
import { tokenBody } from './scale-data.js';

/** Bodies of clients 0 … count−1, precomputed up to this many (beyond, each is derived when sent). */
const PRECOMPUTED = 200_000;

/**
 * Closed-loop load (autocannon, as the main scenarios) where request i comes from client i mod
 * `count` of the generated set: round robin over every client. With `amount`, exactly that many
 * requests (a warm-up pass over every client) instead of `seconds`.
 */
export async function rotatingLoad(
  target: Target,
  server: RunningServer,
  clients: { seed: string; count: number },
  run: { seconds?: number; amount?: number },
): Promise<AutocannonResult> {
  const bodies =
    clients.count <= PRECOMPUTED ? Array.from({ length: clients.count }, (_, i) => tokenBody(clients.seed, i)) : null;
  let next = 0;
  const body = () => {
    const i = next++ % clients.count;
    return bodies ? bodies[i]! : tokenBody(clients.seed, i);
  };
  const result = await autocannon({
    url: server.url + target.tokenPath,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    connections: settings.connections,
    ...(run.amount ? { amount: run.amount, ...PROMPT_END } : { duration: run.seconds ?? settings.durationSeconds }),
    timeout: 10,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: body() }) }],
  });
  if (result.non2xx + result.errors + result.timeouts > 0 || result['2xx'] === 0) {
    failures.push(
      `gatehouse, ${clients.count} clients: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts, ${result['2xx']} 2xx`,
    );
  }
  return result;
}

export interface RotatingFigures {
  clients: number;
  tokensPerSec: number;
  p99Ms: number;
  rssMb: number;
  cpuUsPerToken: number;
}

/**
 * A fresh Gatehouse: one pass over every client (each loaded once into the cache, or the 3 s
 * warm-up for a single client), then the measured run round robin over all of them.
 */
export async function measureRotating(
  target: Target,
  clients: { seed: string; count: number },
): Promise<RotatingFigures> {
  const server = await startServer(target);
  try {
    if (clients.count > 1) await rotatingLoad(target, server, clients, { amount: clients.count });
    else await rotatingLoad(target, server, clients, { seconds: settings.warmupSeconds });
    const before = cpuSeconds(server.pid);
    const run = await rotatingLoad(target, server, clients, { seconds: settings.durationSeconds });
    return {
      clients: clients.count,
      tokensPerSec: round(run['2xx'] / run.duration, 0),
      p99Ms: round(run.latency.p99, 2),
      rssMb: rssMb(server.pid),
      cpuUsPerToken: round(((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, run['2xx']), 0),
    };
  } finally {
    await stopServer(server);
  }
}

/** Open-loop load at `rate` over every client of the set, in a fresh generator process (paced-load.ts). */
export function pacedRotating(
  target: Target,
  server: RunningServer,
  clients: { seed: string; count: number },
  rate: number,
  seconds: number,
): Promise<PacedResult> {
  return rotatingTraffic(target, server, clients, rate, seconds, 0).result;
}

/** Unmeasured lead-in of traffic beside a sweep: its connections open and its generator warms before the sweep. */
const TRAFFIC_LEAD_IN_SECONDS = smoke ? 0.5 : 2;
/** The longest traffic beside a sweep: a sweep still running then has its traffic end (and it fails the run). */
const TRAFFIC_MAX_SECONDS = 600;

/**
 * Open-loop traffic at `rate` over every client of the set until stopped: one stream for as long as
 * a sweep runs, measured from the end of its lead-in.
 */
export function pacedRotatingTraffic(
  target: Target,
  server: RunningServer,
  clients: { seed: string; count: number },
  rate: number,
): PacedTraffic {
  return rotatingTraffic(target, server, clients, rate, TRAFFIC_MAX_SECONDS, TRAFFIC_LEAD_IN_SECONDS);
}

/** Paced load over the clients in a generator process of its own; its failures are recorded once it ends. */
function rotatingTraffic(
  target: Target,
  server: RunningServer,
  clients: { seed: string; count: number },
  rate: number,
  seconds: number,
  warmupSeconds: number,
): PacedTraffic {
  const traffic = pacedTrafficInChild({
    url: server.url + target.tokenPath,
    body: '',
    rate: Math.max(1, Math.round(rate)),
    seconds,
    warmupSeconds,
    rotate: clients,
  });
  const result = traffic.result.then((paced) => {
    if (paced.failed > 0)
      failures.push(`gatehouse at ${Math.round(rate)}/s over ${clients.count} clients: ${failuresText(paced)}`);
    return paced;
  });
  return { ...traffic, result };
}

/** Samples a process's RSS every `everyMs` until `stop` resolves. */
export function sampleRss(
  pid: number,
  everyMs: number,
): { samples: Array<{ atS: number; rssMb: number }>; stop(): void } {
  const started = Date.now();
  const samples: Array<{ atS: number; rssMb: number }> = [];
  const timer = setInterval(() => {
    try {
      samples.push({ atS: round((Date.now() - started) / 1000, 0), rssMb: rssMb(pid) });
    } catch {
      // the process ended
    }
  }, everyMs);
  return { samples, stop: () => clearInterval(timer) };
}
