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
const { selfWarmSeconds, ...options } = JSON.parse(requiredEnv('PACED_LOAD')) as PacedChildOptions;

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
  (result) => process.send?.(result, () => process.exit(0)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
