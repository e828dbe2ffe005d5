import { randomBytes } from 'node:crypto';
import { type Target, cpuSeconds, failures, option, round, rssMb, startServer, stopServer } from './harness.js';
import { type MemoryBreakdown, memoryOf } from './memory-report.js';
import type { Provisioned } from './provision.js';
import { generateClients } from './scale-data.js';
import { rotatingLoad, sampleRss } from './scale-load.js';

export interface MemoryFigures {
  clients: number;
  tokensPerSec: number;
  cpuUsPerToken: number;
  rssAtReadyMb: number;
  /** The largest of the samples taken every 5 s under load, and the last. */
  rssPeakMb: number;
  rssEndMb: number;
  atReady: MemoryBreakdown | null;
  atEnd: MemoryBreakdown | null;
}

/**
 * A replica's memory under full load (`node dist/bench/src/experiment.js ES256 1 --memory 1,10000`,
 * options `--seconds=<n>` (60), `--node=<node flag>`, `--server-env=NAME=value`, `--in-db=<clients>`,
 * `--no-image-flags`): for each count, that
 * many generated clients in the database (the counts ascending, each adding to the last), a fresh
 * Gatehouse, one pass over every client (3 s of load for one), then closed-loop load round robin over
 * them for `seconds`, RSS sampled every 5 s, and V8's and Node's breakdown at ready and at the end.
 */
export async function memoryExperiment(provisioned: Provisioned, all: Target[]): Promise<number> {
  const at = process.argv.indexOf('--memory');
  const counts = (process.argv[at + 1] ?? '1,10000').split(',').map(Number).filter((n) => n > 0).sort((a, b) => a - b);
  const seconds = option('seconds', 60);
  const base = all.find((t) => t.name === 'gatehouse')!;
  const extraEnv = Object.fromEntries(
    process.argv.filter((a) => a.startsWith('--server-env=')).map((a) => a.slice(13).split('=') as [string, string]),
  );
  // --no-image-flags: started as `npm start` started it before its script named the image's flags.
  const imageFlags = process.argv.includes('--no-image-flags') ? [] : (base.nodeArgs ?? []);
  const gatehouse: Target = { ...base, env: { ...base.env, ...extraEnv }, nodeArgs: imageFlags };
  const nodeArgs = process.argv.filter((a) => a.startsWith('--node=')).map((a) => a.slice(7));
  const seed = `memory-${randomBytes(4).toString('hex')}`;
  const figures: MemoryFigures[] = [];
  // --in-db=N: N clients exist whatever the count served (each count is served by the first of them).
  let generated = 0;
  const generate = async (to: number) => {
    if (to <= generated) return;
    const options = { tenantId: provisioned.tenantId, scopeId: provisioned.scopeId, seed, pepper: provisioned.pepper };
    await generateClients(provisioned.databaseUrl, { ...options, from: generated, to });
    generated = to;
  };
  await generate(option('in-db', 0));
  for (const count of counts) {
    await generate(count);
    figures.push(await measureMemory(gatehouse, nodeArgs, { seed, count }, seconds));
    console.dir(figures.at(-1), { depth: 4 });
  }
  console.log('clients  tokens/s  µs/token  RSS ready  RSS peak  RSS end  heap used/total  anon/file');
  for (const f of figures) {
    const e = f.atEnd;
    console.log(
      `${String(f.clients).padStart(7)}  ${String(f.tokensPerSec).padStart(8)}  ${String(f.cpuUsPerToken).padStart(8)}  ` +
        `${String(f.rssAtReadyMb).padStart(9)}  ${String(f.rssPeakMb).padStart(8)}  ${String(f.rssEndMb).padStart(7)}  ` +
        `${e ? `${e.heapUsedMb}/${e.heapTotalMb}`.padStart(15) : '?'}  ${e ? `${e.rssAnonMb}/${e.rssFileMb}` : '?'}`,
    );
  }
  return failures.length > 0 ? 1 : 0;
}

async function measureMemory(
  target: Target,
  nodeArgs: string[],
  clients: { seed: string; count: number },
  seconds: number,
): Promise<MemoryFigures> {
  const server = await startServer(target, nodeArgs);
  try {
    const rssAtReadyMb = rssMb(server.pid);
    const atReady = await memoryOf(server.child);
    if (clients.count > 1) await rotatingLoad(target, server, clients, { amount: clients.count });
    else await rotatingLoad(target, server, clients, { seconds: 3 });
    const sampler = sampleRss(server.pid, 5_000);
    const before = cpuSeconds(server.pid);
    const run = await rotatingLoad(target, server, clients, { seconds });
    const cpuUsPerToken = round(((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, run['2xx']), 0);
    sampler.stop();
    const rssEndMb = rssMb(server.pid);
    const atEnd = await memoryOf(server.child);
    return {
      clients: clients.count,
      tokensPerSec: round(run['2xx'] / run.duration, 0),
      cpuUsPerToken,
      rssAtReadyMb,
      rssPeakMb: Math.max(rssEndMb, ...sampler.samples.map((s) => s.rssMb)),
      rssEndMb,
      atReady,
      atEnd,
    };
  } finally {
    await stopServer(server);
  }
}
