// Latency under paced load and CPU profiles of a server: the measurements that run a server alone.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Target,
  failures,
  load,
  logDir,
  pin,
  repoRoot,
  settings,
  smoke,
  startServer,
  stopServer,
  verifyOneToken,
} from './harness.js';
import { type PacedChildOptions, type PacedResult, failuresText } from './paced-load.js';
import { type ProfileSummary, type ProfileWindow, monotonicMicros, summarizeCpuProfile } from './cpu-profile.js';
import { realtimeGenerator } from './plan.js';
import type { Algorithm } from './protocol.js';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * p99 under open-loop load at a fixed rate (see paced-load.ts for why not autocannon's
 * overallRate), on a fresh server that first runs exactly what a measured round runs (warm-up and
 * full-speed run): after 3 s of load alone, JIT and heap sizing are not settled and the tail of
 * every server, the ceiling's too, is several times longer. Each paced window runs 2 s before its
 * measured seconds: its first 200 ms (new connections, the generator's own cold code) held 1 % of
 * all requests above 5 ms, which alone would set the p99. There are `rounds` windows and the
 * median p99 counts: on this shared virtual machine one stall of ~100 ms (seen in single windows,
 * for the ceiling too) delays enough requests to move a p99 several-fold.
 */
export async function p99AtRate(
  target: Target,
  alg: Algorithm,
  rate: number,
): Promise<{ p99Ms: number; windowsMs: number[] }> {
  const server = await startServer(target);
  try {
    await verifyOneToken(target, server, alg);
    await load(target, server, settings.warmupSeconds + settings.durationSeconds);
    const windowsMs: number[] = [];
    for (let window = 0; window < settings.rounds; window++) {
      const paced = await pacedLoadInChild({
        url: server.url + target.tokenPath,
        body: target.body,
        rate: Math.max(1, Math.round(rate)),
        seconds: settings.durationSeconds,
        warmupSeconds: smoke ? 0 : 2,
      });
      if (paced.failed > 0) failures.push(`${target.name} at ${rate}/s: ${failuresText(paced)}`);
      windowsMs.push(paced.p99Ms);
    }
    const sorted = [...windowsMs].sort((a, b) => a - b);
    return { p99Ms: sorted[Math.floor(sorted.length / 2)]!, windowsMs };
  } finally {
    await stopServer(server);
  }
}

/** {@link pacedLoad} in a fresh process on the load generator's core (see paced-load-child.ts). */
export function pacedLoadInChild(options: PacedChildOptions): Promise<PacedResult> {
  return pacedTrafficInChild(options).result;
}

/** A paced load in its own process that can be ended early: traffic whose end is an event (a sweep's). */
export interface PacedTraffic {
  /** Resolves when the lead-in (`warmupSeconds`) is over and the measured requests begin. */
  measuring: Promise<void>;
  /** Sends nothing more; `result` then resolves once the requests in flight are answered. */
  stop(): void;
  result: Promise<PacedResult>;
}

export function pacedTrafficInChild(options: PacedChildOptions): PacedTraffic {
  const script = join(here, 'paced-load-child.js');
  const command = pin ? 'taskset' : process.execPath;
  const args = [...(pin ? ['-c', '0', process.execPath] : []), script];
  const child = spawn(command, args, {
    env: { ...process.env, PACED_LOAD: JSON.stringify({ selfWarmSeconds: smoke ? 0 : 1, realtime: realtimeGenerator, ...options }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let measured!: () => void;
  const measuring = new Promise<void>((resolve) => (measured = resolve));
  const result = new Promise<PacedResult>((resolveResult, reject) => {
    let outcome: PacedResult | undefined;
    child.on('message', (message: PacedResult | 'measuring') => {
      if (message === 'measuring') measured();
      else outcome = message;
    });
    child.once('exit', (code) => {
      measured(); // a generator that failed early must not leave its caller waiting
      if (outcome) resolveResult(outcome);
      else reject(new Error(`the paced load generator exited with ${code}`));
    });
  });
  const stop = () => {
    if (child.connected) child.send('stop');
  };
  return { measuring, stop, result };
}

/** A server (Gatehouse in the report) under load with `--cpu-prof`; returns the top self-time frames. */
export async function profileGatehouse(target: Target, alg: Algorithm = 'ES256'): Promise<ProfileSummary> {
  const dir = smoke ? logDir : join(repoRoot, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const name = `${target.name}-${alg.toLowerCase()}.cpuprofile`;
  const server = await startServer(target, ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`]);
  let window: ProfileWindow;
  try {
    await verifyOneToken(target, server, alg);
    await load(target, server, settings.warmupSeconds);
    const fromUs = monotonicMicros();
    await load(target, server, Math.min(settings.durationSeconds, 10));
    window = { fromUs, toUs: monotonicMicros() };
  } finally {
    await stopServer(server);
  }
  return summarizeCpuProfile(join(dir, name), 25, window);
}
