import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type PacedChildOptions, pacedLoad } from './paced-load.js';
import { requiredEnv } from './protocol.js';

/**
 * Runs one open-loop load in a process of its own and sends the result to the parent over IPC.
 * The generator must not share a heap with the orchestrator: a garbage collection of the
 * orchestrator (which holds every earlier run's results) would hold back due requests, and the
 * delay would be charged to the server under test.
 *
 * Before it (`selfWarmSeconds`: one second outside smoke runs), the same load against a sink in
 * this process: the generator's own first second (cold code, first requests formatted) otherwise
 * put ≈ 100 ms on the p99 of the first second of every window, a server warm for minutes included.
 */
const { selfWarmSeconds, realtime, ...options } = JSON.parse(requiredEnv('PACED_LOAD')) as PacedChildOptions;

/**
 * With `--realtime-generator` (`realtime`): the generator stands for clients on machines of their
 * own, yet here it shares core 0 with the database, and at normal priority this kernel (HZ 250, no
 * preemption inside the kernel, session autogroups) lets a busy backend finish its slice, up to a
 * 4-ms tick, before the generator writes a due request or reads an answer: beside a sweep its own
 * lateness was 3.7 ms at p99 and every second's p99 from the write 8.1 ms, charged to the server
 * (BENCHMARKS.md, "Session of 2026-11-27, late afternoon"). So its main thread, the one that
 * sends and reads, runs at real-time priority (`chrt`, needs root or CAP_SYS_NICE); V8's helper
 * threads, started before it, keep theirs (all threads at real-time starved the database once: a
 * sweep of 88 s). Off by default, since it makes the sweep of a million slower (9 % on a fast host,
 * 25–100 % on slower ones); the runs of record use it (`--full` implies it). The result says how
 * the generator ran.
 */
function policy(): string {
  if (!realtime) return 'SCHED_OTHER';
  try {
    execFileSync('chrt', ['-f', '-p', '10', String(process.pid)], { stdio: 'ignore' });
    return 'SCHED_FIFO 10 (main thread)';
  } catch {
    return 'SCHED_OTHER (chrt refused)';
  }
}
const generatorPolicy = policy();

async function selfWarm(): Promise<void> {
  const sink = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('{}'));
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const { port } = sink.address() as AddressInfo;
  try {
    const path = new URL(options.url).pathname;
    await pacedLoad({ ...options, url: `http://127.0.0.1:${port}${path}`, seconds: selfWarmSeconds ?? 0, warmupSeconds: 0 });
  } finally {
    sink.closeAllConnections();
    await new Promise((resolve) => sink.close(resolve));
  }
}

// The parent may end the run early ('stop') and is told when the measured seconds begin.
const stop = new Promise<void>((resolve) => process.on('message', (message) => message === 'stop' && resolve()));
const onMeasuring = () => process.send?.('measuring');

(selfWarmSeconds ? selfWarm() : Promise.resolve()).then(() => pacedLoad(options, { stop, onMeasuring })).then(
  (result) => process.send?.({ ...result, generatorPolicy }, () => process.exit(0)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
