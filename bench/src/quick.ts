import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  type Measurement,
  type Provisioned,
  type ServerName,
  failures,
  machine,
  measure,
  medianMeasurement,
  repoRoot,
  round,
  settings,
} from './harness.js';
import { resultsFile } from './plan.js';
import { targets } from './provision.js';

/**
 * `npm run bench -- --quick`: Gatehouse against the ceiling on ES256, in rounds that alternate
 * between them on fresh processes (as the full comparison does), to see whether a change moved
 * the token path. Reports the median tokens/s, CPU µs per token and RSS of each, and Gatehouse's
 * share of the ceiling by both; writes bench/results/quick.json.
 */
export async function runQuick(provisioned: Provisioned, started: number): Promise<number> {
  await provisioned.setAlgorithm('ES256');
  const compared = targets(provisioned, 'ES256').filter((t) => t.name !== 'oidc-provider');
  const rounds = new Map<ServerName, Measurement[]>(compared.map((t) => [t.name, []]));
  for (let r = 1; r <= settings.rounds; r++) {
    const line: string[] = [];
    for (const target of compared) {
      const measured = await measure(target, 'ES256');
      rounds.get(target.name)!.push(measured);
      line.push(`${target.name} ${measured.result.tokensPerSec}/s ${measured.cpuUsPerToken} µs ${measured.result.rssMb} MB`);
    }
    console.log(`  round ${r}: ${line.join(', ')}`);
  }
  const medians = Object.fromEntries(
    [...rounds].map(([name, measured]) => {
      const median = medianMeasurement(measured);
      const { tokensPerSec, p50Ms, p99Ms, rssMb } = median.result;
      return [name, { tokensPerSec, cpuUsPerToken: median.cpuUsPerToken, p50Ms, p99Ms, rssMb }];
    }),
  );
  const gatehouse = medians.gatehouse!;
  const ceiling = medians.ceiling!;
  const ratios = {
    vsCeiling: round(gatehouse.tokensPerSec / ceiling.tokensPerSec, 3),
    vsCeilingByCpu: round(ceiling.cpuUsPerToken / gatehouse.cpuUsPerToken, 3),
  };
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    settings,
    alg: 'ES256',
    rounds: Object.fromEntries([...rounds].map(([name, measured]) => [name, measured.map((m) => ({ ...m.result, cpuUsPerToken: m.cpuUsPerToken }))])),
    medians,
    ratios,
    failures,
    elapsedSeconds: round((Date.now() - started) / 1000, 0),
  };
  const file = join(repoRoot, 'bench/results', resultsFile.quick);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `\nES256, medians of ${settings.rounds} rounds: Gatehouse ${gatehouse.tokensPerSec} tokens/s, ${gatehouse.cpuUsPerToken} µs a token, ` +
      `RSS ${gatehouse.rssMb} MB; ceiling ${ceiling.tokensPerSec} tokens/s, ${ceiling.cpuUsPerToken} µs, RSS ${ceiling.rssMb} MB`,
  );
  console.log(`Gatehouse ÷ ceiling: ${ratios.vsCeiling} by tokens/s, ${ratios.vsCeilingByCpu} by CPU per token (target ≥ 0.85)`);
  console.log(`wrote ${file} in ${report.elapsedSeconds} s`);
  return failures.length > 0 ? 1 : 0;
}
