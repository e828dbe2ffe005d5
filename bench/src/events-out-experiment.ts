import { describeEventsOut, measureEventsOut } from './events-out.js';
import { type Target, failures, measure } from './harness.js';
import type { Algorithm } from './protocol.js';
import type { Provisioned } from './provision.js';

/**
 * The events-out phase alone, `rounds` times (`node --expose-gc dist/bench/src/experiment.js ES256
 * <rounds> --events-out [writes]`, 2,000 writes by default; `--no-tokens` skips the token runs):
 * each round prints the three figures against their targets and what one delivery cost, then the
 * round's figures as JSON. A change to the delivery path is compared by its cost per delivery
 * (CPU, statements), which a busy host does not skew as it does the rates.
 */
export async function eventsOutExperiment(p: Provisioned, all: Target[], alg: Algorithm, rounds: number): Promise<number> {
  const writes = Number(process.argv[process.argv.indexOf('--events-out') + 1]) || 2_000;
  const gatehouse = all.find((t) => t.name === 'gatehouse')!;
  const tokenRate = process.argv.includes('--no-tokens') ? undefined : async () => (await measure(gatehouse, alg)).result.tokensPerSec;
  for (let i = 0; i < rounds; i++) {
    const figures = await measureEventsOut(p.config, p.tenantId, writes, tokenRate);
    console.log(`round ${i + 1}: ${describeEventsOut(figures)}`);
    console.log(JSON.stringify(figures));
  }
  return failures.length > 0 ? 1 : 0;
}
