import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import {
  type Target,
  cpuSeconds,
  failures,
  load,
  onServer,
  pin,
  provision,
  repoRoot,
  round,
  startServer,
  stopServer,
  targets,
  verifyOneToken,
} from './harness.js';

/**
 * Attribution experiment (`node dist/bench/src/experiment.js`): server CPU per token of Gatehouse
 * ES256 with production request logging (info) and with request logging off (warn), alternated over
 * three rounds, plus the ceiling as the reference; the difference is the price of per-request logging.
 */
const ROUNDS = 3;
const WARMUP = 3;
const DURATION = 10;

/** Server CPU µs per token: what a token costs, whatever else the machine is doing. */
async function cpuPerToken(target: Target, env: Record<string, string>): Promise<number> {
  const server = await startServer({ ...target, env: { ...target.env, ...env } });
  try {
    await verifyOneToken(target, server, 'ES256');
    await load(target, server, WARMUP);
    const before = cpuSeconds(server.pid);
    const result = await load(target, server, DURATION);
    return round(((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, result['2xx']), 0);
  } finally {
    await stopServer(server);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function experiment(): Promise<number> {
  if (pin) execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  const provisioned = await provision();
  const runs: Record<string, number[]> = { 'gatehouse, info logs': [], 'gatehouse, warn logs': [], ceiling: [] };
  try {
    await provisioned.setAlgorithm('ES256');
    const all = targets(provisioned, 'ES256');
    const gatehouse = all.find((t) => t.name === 'gatehouse')!;
    const ceiling = all.find((t) => t.name === 'ceiling')!;
    for (let i = 0; i < ROUNDS; i++) {
      runs['gatehouse, info logs']!.push(await cpuPerToken(gatehouse, { GATEHOUSE_LOG_LEVEL: 'info' }));
      runs['gatehouse, warn logs']!.push(await cpuPerToken(gatehouse, { GATEHOUSE_LOG_LEVEL: 'warn' }));
      runs.ceiling!.push(await cpuPerToken(ceiling, {}));
      console.log(`round ${i + 1}: ${Object.entries(runs).map(([k, v]) => `${k} ${v[i]}`).join(', ')}`);
    }
  } finally {
    await provisioned.close();
    await onServer(`DROP DATABASE IF EXISTS "${provisioned.databaseName}" WITH (FORCE)`);
  }
  const medians = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)]));
  const report = { date: new Date().toISOString(), alg: 'ES256', rounds: runs, medians, failures };
  writeFileSync(join(repoRoot, 'bench/results/experiment.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log('medians (server CPU µs per token):', medians);
  return failures.length > 0 ? 1 : 0;
}

experiment().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
