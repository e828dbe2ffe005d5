import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ComparisonFigures, phase, runComparison } from './comparison.js';
import { type Provisioned, failures, machine, onServer, pin, postgresSettings, repoRoot, round, settings } from './harness.js';
import { mode, realtimeGenerator, resultsFile } from './plan.js';
import { printPlan } from './plan-estimate.js';
import { provision, targets } from './provision.js';
import { runQuick } from './quick.js';
import { comparisonRatios, previousScale, printSummary } from './report.js';
import { type ScaleResult, measureScale } from './scale.js';
import { writeScaleReport } from './scale-report.js';

/** `--scale-only`: provision and run the scale scenarios alone; their figures replace `scale` in the results file. */
const scaleOnly = process.argv.includes('--scale-only');
/** `--no-scale`: the comparison alone; the results file keeps the scale figures of the run that made them. */
const noScale = process.argv.includes('--no-scale');
const file = join(repoRoot, 'bench/results', resultsFile[mode]);

/**
 * `npm run bench [-- --quick | --full | --smoke | --plan]` (plan.ts describes each mode):
 * Gatehouse against node-oidc-provider and a minimal ceiling, ES256 and RS256, then the invitation
 * sweep, the mail outbox and the scale pass; writes the mode's results file under bench/results.
 */
async function main(): Promise<number> {
  if (process.argv.includes('--plan')) {
    printPlan();
    return 0;
  }
  if (pin) execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  const started = Date.now();
  console.log(
    `Gatehouse benchmark, ${mode} mode: ${settings.connections} connections, ${settings.warmupSeconds} s warm-up, ` +
      `${settings.durationSeconds} s runs, ${settings.rounds} round(s) per server and algorithm` +
      (realtimeGenerator ? '; the paced generator at real-time priority' : ''),
  );
  if (realtimeGenerator && !realTimeAllowed()) {
    console.warn('warning: real-time priority is refused here (needs root or CAP_SYS_NICE); the generator runs at normal priority and this is not a run of record');
  }
  const provisioned = await provision();
  if (mode === 'quick') return finish(provisioned, () => runQuick(provisioned, started));
  if (scaleOnly) return finish(provisioned, () => runScaleOnly(provisioned, started));
  const phaseSeconds: Record<string, number> = {};
  let comparison!: ComparisonFigures;
  let scale: ScaleResult | null = null;
  const code = await finish(provisioned, async () => {
    comparison = await runComparison(provisioned, phaseSeconds);
    if (!noScale) scale = await phase('scale', phaseSeconds, () => scaleOrFailure(provisioned));
    return 0;
  });
  const { notes, ...figures } = comparison;
  const ratios = comparisonRatios(comparison);
  const report = {
    date: new Date().toISOString(),
    mode,
    machine: machine(),
    settings,
    ...figures,
    ...ratios,
    ...(noScale ? previousScale(file) : await scaleFigures(scale)),
    failures,
    notes,
    phaseSeconds,
    elapsedSeconds: round((Date.now() - started) / 1000, 0),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  printSummary(comparison, ratios, scale);
  console.log(`\nwrote ${file} in ${report.elapsedSeconds} s`);
  return failed(code);
}

function failed(code: number): number {
  if (failures.length === 0) return code;
  console.error(`FAILED: servers answered with errors:\n  ${failures.join('\n  ')}`);
  return 1;
}

/** Runs the work, then closes the provisioning context and drops the run's database whatever happened. */
async function finish(provisioned: Provisioned, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } finally {
    await provisioned.close();
    await onServer(`DROP DATABASE IF EXISTS "${provisioned.databaseName}" WITH (FORCE)`);
  }
}

/** Whether this process may start one at real-time priority (what the paced generator asks for). */
function realTimeAllowed(): boolean {
  try {
    execFileSync('chrt', ['-f', '10', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function scaleFigures(scale: ScaleResult | null): Promise<Record<string, unknown>> {
  return {
    scale: scale?.scale ?? null,
    scaleDetails: scale ? { ...scale.details, curve: scale.curve, lists: scale.lists, postgres: await postgresSettings() } : null,
  };
}

/** The scale scenarios on ES256 (the hot path's algorithm); a failure is recorded, so smoke mode fails. */
async function scaleOrFailure(provisioned: Provisioned): Promise<ScaleResult | null> {
  try {
    await provisioned.setAlgorithm('ES256');
    const gatehouse = targets(provisioned, 'ES256').find((t) => t.name === 'gatehouse')!;
    const result = await measureScale(provisioned, gatehouse, plotPath());
    await writeScaleReport(result);
    return result;
  } catch (error) {
    failures.push(`scale: ${(error as Error).stack ?? String(error)}`);
    return null;
  }
}

/** The run of record's plot is committed; every other run draws its own in the temporary directory. */
function plotPath(): string {
  return mode === 'full' ? join(repoRoot, 'bench/results/scale-cost-curve.png') : join(tmpdir(), 'scale-cost-curve.png');
}

async function runScaleOnly(provisioned: Provisioned, started: number): Promise<number> {
  const scale = await scaleOrFailure(provisioned);
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const figures = await scaleFigures(scale);
  const report = {
    ...previous,
    ...figures,
    scaleDetails: figures.scaleDetails && { ...figures.scaleDetails, date: new Date().toISOString(), machine: machine() },
    scaleFailures: [...failures],
    scaleElapsedSeconds: round((Date.now() - started) / 1000, 0),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`scale: ${JSON.stringify(scale?.scale ?? null)}\nwrote ${file} in ${report.scaleElapsedSeconds} s`);
  return failed(0);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
