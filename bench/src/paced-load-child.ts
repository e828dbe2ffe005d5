import { pacedLoad } from './paced-load.js';
import { requiredEnv } from './protocol.js';

/**
 * Runs one open-loop load in a process of its own and sends the result to the parent over IPC.
 * The generator must not share a heap with the orchestrator: a garbage collection of the
 * orchestrator (which holds every earlier run's results) would hold back due requests, and the
 * delay would be charged to the server under test.
 */
const options = JSON.parse(requiredEnv('PACED_LOAD')) as Parameters<typeof pacedLoad>[0];
pacedLoad(options).then(
  (result) => process.send?.(result, () => process.exit(0)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
