import {
  type RunningServer,
  type Target,
  cpuSeconds,
  load,
  median,
  round,
  startServer,
  stopServer,
  verifyOneToken,
} from './harness.js';
import type { Algorithm } from './protocol.js';

const BURST_SECONDS = 2;

interface Contender {
  name: string;
  target: Target;
  server: RunningServer;
  cpuUs: number[];
}

/**
 * CPU per token in short bursts that take turns on servers started once
 * (`node dist/bench/src/experiment.js ES256 <bursts> --interleave [--also=<node flag>]`): each burst
 * is 2 s of the usual closed-loop load on one server, so the ceiling's and Gatehouse's figures of one
 * turn are seconds apart, not a minute. On a host whose speed swings within a minute (the ceiling at
 * 83 and 148 µs a token ten minutes apart) fresh-server rounds compare different machines; here each
 * turn gives a paired ratio, and the figure is their median. For comparing changes, not for the
 * results file (the full run keeps its fresh-server rounds).
 */
export async function interleaveExperiment(
  servers: Record<string, Target>,
  alg: Algorithm,
  bursts: number,
): Promise<number> {
  const contenders: Contender[] = [];
  try {
    for (const [name, target] of Object.entries(servers)) {
      const server = await startServer(target);
      contenders.push({ name, target, server, cpuUs: [] });
      await verifyOneToken(target, server, alg);
      await load(target, server, 3);
    }
    for (let turn = 1; turn <= bursts; turn++) {
      for (const c of contenders) {
        const before = cpuSeconds(c.server.pid);
        const result = await load(c.target, c.server, BURST_SECONDS);
        c.cpuUs.push(((cpuSeconds(c.server.pid) - before) * 1e6) / Math.max(1, result['2xx']));
      }
      console.log(`turn ${turn}: ${contenders.map((c) => `${c.name} ${Math.round(c.cpuUs.at(-1)!)} µs`).join(', ')}`);
    }
  } finally {
    for (const c of contenders) await stopServer(c.server);
  }
  const ceiling = contenders.find((c) => c.name === 'ceiling')!;
  for (const c of contenders.filter((x) => x !== ceiling)) {
    const paired = c.cpuUs.map((us, i) => ceiling.cpuUs[i]! / us);
    const sorted = [...paired].sort((a, b) => a - b);
    console.log(
      `${c.name}: median ${round(median(c.cpuUs), 1)} µs a token (ceiling ${round(median(ceiling.cpuUs), 1)}); ` +
        `ceiling ÷ ${c.name} by turn: median ${round(median(paired), 3)}, middle half ${round(sorted[Math.floor(sorted.length / 4)]!, 3)}–${round(sorted[Math.floor((3 * sorted.length) / 4)]!, 3)}`,
    );
  }
  return 0;
}
