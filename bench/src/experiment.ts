import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { printProfileSummary } from './cpu-profile.js';
import { ALGORITHMS, type Algorithm } from './protocol.js';
import { type Target, failures, measure, median, onServer, pin, repoRoot, round } from './harness.js';
import { profileGatehouse } from './server-windows.js';
import { assertionExperiment } from './assertion-experiment.js';
import { printFederated } from './federated-assertions.js';
import { printSourceRanges } from './source-ranges.js';
import { measureTokenPathFeatures } from './token-path-features.js';
import { interleaveExperiment } from './interleave-experiment.js';
import { eventsOutExperiment } from './events-out-experiment.js';
import { memoryExperiment } from './memory-experiment.js';
import { missExperiment } from './miss-experiment.js';
import { sweepExperiment } from './sweep-experiment.js';
import { provision, targets } from './provision.js';

/**
 * Quick A/B of the token path (`node dist/bench/src/experiment.js [ES256|RS256] [rounds]`): Gatehouse
 * and the ceiling alternated over a few rounds, each with a 3 s warm-up and a 10 s run; reports
 * tokens/s and server CPU µs per token (median of the rounds) and their ratios. For trying a change
 * to the hot path with more rounds or another algorithm than `npm run bench -- --quick` takes. With `--profile`, Gatehouse and the ceiling are profiled
 * instead and the top frames are printed. With `--assertions`, client assertions against secrets on
 * Gatehouse (as in the full run's `assertions`), profiled with `--profile`. With `--federated` or
 * `--source-ranges`, federated assertions and 50 allowed source ranges against secrets (token-path-features.ts).
 * With `--misses`, see
 * miss-experiment.ts; with `--sweep`, sweep-experiment.ts; with `--events-out`, events-out-experiment.ts. With `--also=<node flag>`, Gatehouse
 * started with that flag after the image's is a third server of each round (`variant`). With
 * `--interleave`, short bursts on servers started once instead of rounds (interleave-experiment.ts).
 */
type Name = 'gatehouse' | 'ceiling' | 'variant';

interface Sample {
  tokensPerSec: number;
  cpuUsPerToken: number;
}

/** A fresh server: one token verified, the warm-up, then the measured run (the full run's `measure`). */
async function sample(target: Target, alg: Algorithm): Promise<Sample> {
  const { result, cpuUsPerToken } = await measure(target, alg);
  return { tokensPerSec: result.tokensPerSec, cpuUsPerToken };
}

async function experiment(): Promise<number> {
  const alg = (ALGORITHMS as readonly string[]).includes(process.argv[2] ?? '')
    ? (process.argv[2] as Algorithm)
    : 'ES256';
  const rounds = Number(process.argv[3] ?? 3) || 3;
  if (pin) execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  const provisioned = await provision();
  const also = process.argv.filter((a) => a.startsWith('--also=')).map((a) => a.slice(7));
  const runs: Partial<Record<Name, Sample[]>> = { gatehouse: [], ceiling: [], ...(also.length ? { variant: [] } : {}) };
  try {
    await provisioned.setAlgorithm(alg);
    const all = targets(provisioned, alg);
    if (process.argv.includes('--assertions')) return await assertionExperiment(provisioned, all, rounds);
    if (process.argv.includes('--federated') || process.argv.includes('--source-ranges')) {
      const measured = await measureTokenPathFeatures(provisioned, all.find((t) => t.name === 'gatehouse')!, alg);
      printFederated(measured.federated);
      printSourceRanges(measured.sourceRanges);
      return failures.length > 0 ? 1 : 0;
    }
    if (process.argv.includes('--misses')) return await missExperiment(provisioned, all);
    if (process.argv.includes('--memory')) return await memoryExperiment(provisioned, all);
    if (process.argv.includes('--sweep')) return await sweepExperiment(provisioned, all);
    if (process.argv.includes('--events-out')) return await eventsOutExperiment(provisioned, all, alg, rounds);
    if (process.argv.includes('--profile')) {
      for (const name of ['gatehouse', 'ceiling']) {
        console.log(`\n${name}:`);
        printProfileSummary(await profileGatehouse(all.find((t) => t.name === name)!, alg));
      }
      return failures.length > 0 ? 1 : 0;
    }
    const gatehouse = all.find((t) => t.name === 'gatehouse')!;
    const servers: Record<Name, Target> = {
      gatehouse,
      ceiling: all.find((t) => t.name === 'ceiling')!,
      variant: { ...gatehouse, nodeArgs: [...(gatehouse.nodeArgs ?? []), ...also] },
    };
    if (process.argv.includes('--interleave')) {
      const compared = Object.fromEntries(Object.keys(runs).map((name) => [name, servers[name as Name]]));
      return await interleaveExperiment(compared, alg, rounds);
    }
    for (let i = 0; i < rounds; i++) {
      for (const name of Object.keys(runs) as Name[]) runs[name]!.push(await sample(servers[name], alg));
      console.log(
        `round ${i + 1}: ${Object.entries(runs)
          .map(([name, samples]) => `${name} ${samples[i]!.tokensPerSec}/s ${samples[i]!.cpuUsPerToken} µs`)
          .join(', ')}`,
      );
    }
  } finally {
    await provisioned.close();
    // --keep-db leaves the database for a look with psql afterwards (drop it by hand).
    if (process.argv.includes('--keep-db')) console.log(`kept database ${provisioned.databaseName}`);
    else await onServer(`DROP DATABASE IF EXISTS "${provisioned.databaseName}" WITH (FORCE)`);
  }
  const medians = Object.fromEntries(
    Object.entries(runs).map(([name, samples]) => [
      name,
      {
        tokensPerSec: median(samples.map((s) => s.tokensPerSec)),
        cpuUsPerToken: median(samples.map((s) => s.cpuUsPerToken)),
      },
    ]),
  ) as Record<Name, Sample>;
  const ratioOf = (name: Name) => ({
    tokensPerSec: round(medians[name].tokensPerSec / medians.ceiling.tokensPerSec, 3),
    byCpu: round(medians.ceiling.cpuUsPerToken / medians[name].cpuUsPerToken, 3),
  });
  const ratios = { ...ratioOf('gatehouse'), ...(also.length ? { variant: ratioOf('variant'), flags: also } : {}) };
  const report = { date: new Date().toISOString(), alg, rounds: runs, medians, ratios, failures };
  writeFileSync(join(repoRoot, 'bench/results/experiment.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`${alg} medians:`, medians, 'Gatehouse ÷ ceiling:', ratios);
  return failures.length > 0 ? 1 : 0;
}

experiment().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
