import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type AssertionFigures, measureAssertions } from './assertions.js';
import { type FederatedFigures, measureFederated, printFederated } from './federated-assertions.js';
import { type OutboxFigures, type SweepFigures, measureOutbox, measureSweep } from './background.js';
import { type ProfileSummary, printProfileSummary } from './cpu-profile.js';
import {
  type Measurement,
  type Provisioned,
  type ServerName,
  type ServerResult,
  failures,
  machine,
  measure,
  medianMeasurement,
  onServer,
  postgresSettings,
  pin,
  printTable,
  repoRoot,
  round,
  settings,
  smoke,
} from './harness.js';
import { profileGatehouse, p99AtRate } from './server-windows.js';
import { provision, targets } from './provision.js';
import { ALGORITHMS, type Algorithm } from './protocol.js';
import { type ScaleResult, measureScale } from './scale.js';
import { writeScaleReport } from './scale-report.js';

/** `--scale-only`: provision and run the scale scenarios alone; their figures replace `scale` in the results file. */
const scaleOnly = process.argv.includes('--scale-only');
/** `--no-scale`: the comparison alone; the results file keeps the scale figures of the run that made them. */
const noScale = process.argv.includes('--no-scale');

/**
 * `npm run bench [-- --smoke]`: Gatehouse against node-oidc-provider and a minimal ceiling, ES256
 * and RS256, then the invitation sweep and the mail outbox; writes bench/results/latest.json
 * (smoke.json in smoke mode).
 */
async function main(): Promise<number> {
  if (pin) execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  const started = Date.now();
  console.log(
    `Gatehouse benchmark${smoke ? ' (smoke)' : ''}: ${settings.connections} connections, ${settings.warmupSeconds} s warm-up, ` +
      `${settings.durationSeconds} s runs, ${settings.rounds} round(s) per server and algorithm`,
  );
  const provisioned = await provision();
  if (scaleOnly) return runScaleOnly(provisioned, started);
  const results: ServerResult[] = [];
  /** RSS right after start and after the warm-up: baseline, and whether it still grows under load. */
  const rssAtReadyMb: Record<string, number> = {};
  const rssAfterWarmupMb: Record<string, number> = {};
  /** Server CPU time per token (all threads): robust against a busy machine, unlike tokens/s. */
  const cpuUsPerToken: Record<string, number> = {};
  /** tokens/s of every round, to show the spread behind each median. */
  const roundsTokensPerSec: Record<string, number[]> = {};
  /** p99 of each paced window at half peak; the reported figure is their median. */
  const p99WindowsMs: Record<string, number[]> = {};
  let p99AtHalfPeakMs: number | null = null;
  let p99AtHalfPeakCeilingMs: number | null = null;
  let profile: ProfileSummary | null = null;
  let sweep: SweepFigures | null = null;
  let outbox: OutboxFigures | null = null;
  let assertions: AssertionFigures | null = null;
  let federated: FederatedFigures | null = null;
  let scale: ScaleResult | null = null;
  const notes: string[] = [];
  const sizes = smoke ? { rows: 1_000, overdue: 100, emails: 50 } : { rows: 1_000_000, overdue: 100_000, emails: 5_000 };
  try {
    for (const alg of ALGORITHMS) {
      await provisioned.setAlgorithm(alg);
      // Rounds alternate between the servers, so a slow minute of the machine hits all of them.
      const rounds = new Map<ServerName, Measurement[]>();
      for (let round = 1; round <= settings.rounds; round++) {
        for (const target of targets(provisioned, alg)) {
          const measured = await measure(target, alg);
          rounds.set(target.name, [...(rounds.get(target.name) ?? []), measured]);
          console.log(
            `  ${target.name} ${alg} round ${round}: ${measured.result.tokensPerSec} tokens/s, ${measured.cpuUsPerToken} µs CPU per token`,
          );
        }
      }
      for (const [name, measurements] of rounds) {
        const median = medianMeasurement(measurements);
        results.push(median.result);
        roundsTokensPerSec[`${name} ${alg}`] = measurements.map((m) => m.result.tokensPerSec);
        rssAtReadyMb[`${name} ${alg}`] = median.rssAtReadyMb;
        rssAfterWarmupMb[`${name} ${alg}`] = median.rssAfterWarmupMb;
        cpuUsPerToken[`${name} ${alg}`] = median.cpuUsPerToken;
      }
    }
    // Gatehouse's p99 at half its ES256 peak, and the ceiling's at half its own as the noise floor of this machine.
    await provisioned.setAlgorithm('ES256');
    for (const target of targets(provisioned, 'ES256').filter((t) => t.name !== 'oidc-provider')) {
      const peak = results.find((r) => r.server === target.name && r.alg === 'ES256')!.tokensPerSec;
      const { p99Ms, windowsMs } = await p99AtRate(target, 'ES256', peak / 2);
      console.log(
        `  ${target.name} ES256 at ${Math.round(peak / 2)} tokens/s (half its peak): p99 ${p99Ms} ms (windows: ${windowsMs.join(', ')} ms)`,
      );
      p99WindowsMs[target.name] = windowsMs;
      if (target.name === 'gatehouse') p99AtHalfPeakMs = p99Ms;
      else p99AtHalfPeakCeilingMs = p99Ms;
    }
    profile = await profileGatehouse(targets(provisioned, 'ES256').find((t) => t.name === 'gatehouse')!);
    // Client assertions (certificate credentials, jti spent in Postgres) against secrets, same server, same run.
    const gatehouse = targets(provisioned, 'ES256').find((t) => t.name === 'gatehouse')!;
    const { windows: _windows, ...figures } = await measureAssertions(gatehouse, provisioned.certificates, provisioned.clientId, gatehouse.body);
    assertions = figures;
    for (const [alg, run] of Object.entries(assertions.byAlgorithm)) {
      console.log(
        `  gatehouse client assertions, ${alg}: ${run.tokensPerSec} tokens/s vs ${assertions.secretTokensPerSec} with a secret ` +
          `(${run.ratio}×; by CPU per token ${run.ratioByCpu}×: ${run.cpuUsPerToken} vs ${assertions.cpuUsPerTokenSecret} µs)`,
      );
    }
    federated = printFederated(await measureFederated(provisioned, gatehouse, 'ES256'));
    // The invitation sweep and the mail outbox: measured when their services work, else null.
    try {
      sweep = await measureSweep(provisioned.config, provisioned.tenantId, sizes.rows, sizes.overdue);
      console.log(`  invitation sweep: ${sweep.overdue} of ${sweep.rows} expired in ${sweep.seconds} s`);
    } catch (error) {
      notes.push(`sweep not measured: ${(error as Error).message}`);
    }
    try {
      outbox = await measureOutbox(provisioned.config, provisioned.tenantId, sizes.emails);
      console.log(`  outbox: ${outbox.emails} emails at ${outbox.perSec}/s, exactly once: ${outbox.exactlyOnce}`);
    } catch (error) {
      notes.push(`outbox not measured: ${(error as Error).message}`);
    }
    if (!noScale) scale = await scaleOrFailure(provisioned);
  } finally {
    await provisioned.close();
    await onServer(`DROP DATABASE IF EXISTS "${provisioned.databaseName}" WITH (FORCE)`);
  }

  const find = (server: ServerName, alg: Algorithm) => results.find((r) => r.server === server && r.alg === alg)!.tokensPerSec;
  const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 3) : 0);
  const ratios = Object.fromEntries(
    ALGORITHMS.map((alg) => [
      alg,
      {
        vsOidcProvider: ratio(find('gatehouse', alg), find('oidc-provider', alg)),
        vsCeiling: ratio(find('gatehouse', alg), find('ceiling', alg)),
      },
    ]),
  );
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    settings,
    results,
    ratios,
    p99AtHalfPeakMs,
    p99AtHalfPeakCeilingMs,
    p99WindowsMs,
    roundsTokensPerSec,
    rssAtReadyMb,
    rssAfterWarmupMb,
    cpuUsPerToken,
    /** Same ratios from CPU cost per token (inverse): Gatehouse's share of the others' efficiency. */
    ratiosByCpu: Object.fromEntries(
      ALGORITHMS.map((alg) => [
        alg,
        {
          vsOidcProvider: ratio(cpuUsPerToken[`oidc-provider ${alg}`]!, cpuUsPerToken[`gatehouse ${alg}`]!),
          vsCeiling: ratio(cpuUsPerToken[`ceiling ${alg}`]!, cpuUsPerToken[`gatehouse ${alg}`]!),
        },
      ]),
    ),
    assertions,
    federated,
    sweep,
    outbox,
    ...(noScale
      ? previousScale(join(repoRoot, 'bench/results', smoke ? 'smoke.json' : 'latest.json'))
      : {
          scale: scale?.scale ?? null,
          scaleDetails: scale ? { ...scale.details, curve: scale.curve, lists: scale.lists, postgres: await postgresSettings() } : null,
        }),
    profile,
    failures,
    notes,
    elapsedSeconds: round((Date.now() - started) / 1000, 0),
  };
  const file = join(repoRoot, 'bench/results', smoke ? 'smoke.json' : 'latest.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);

  console.log('');
  printTable(results);
  for (const alg of ALGORITHMS) {
    const r = ratios[alg]!;
    const c = report.ratiosByCpu[alg]!;
    console.log(
      `${alg}: Gatehouse = ${(r.vsOidcProvider * 100).toFixed(0)} % of oidc-provider, ${(r.vsCeiling * 100).toFixed(0)} % of the ceiling` +
        ` (by CPU per token: ${(c.vsOidcProvider * 100).toFixed(0)} %, ${(c.vsCeiling * 100).toFixed(0)} %)`,
    );
  }
  console.log(`p99 at half of the ES256 peak (open loop): Gatehouse ${p99AtHalfPeakMs} ms, ceiling ${p99AtHalfPeakCeilingMs} ms`);
  console.log(`invitation sweep: ${sweep ? `${sweep.overdue} overdue of ${sweep.rows} in ${sweep.seconds} s` : 'not measured'}`);
  console.log(`outbox: ${outbox ? `${outbox.emails} emails at ${outbox.perSec}/s, exactly once: ${outbox.exactlyOnce}` : 'not measured'}`);
  for (const note of notes) console.log(`note: ${note}`);
  if (scale) console.log(`scale: ${JSON.stringify(scale.scale)}`);
  if (profile) printProfileSummary({ ...profile, topFrames: profile.topFrames.slice(0, 15), byOrigin: profile.byOrigin.slice(0, 10), attributed: profile.attributed.slice(0, 15) });
  console.log(`\nwrote ${file} in ${report.elapsedSeconds} s`);
  if (failures.length > 0) {
    console.error(`FAILED: servers answered with errors:\n  ${failures.join('\n  ')}`);
    return 1;
  }
  return 0;
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

/** The scale part of an earlier results file, if any (`--no-scale` keeps it). */
function previousScale(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const previous = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(previous).filter(([key]) => key.startsWith('scale')));
}

/** The committed plot of a full run; smoke runs draw theirs in the run's temporary directory. */
function plotPath(): string {
  return smoke ? join(tmpdir(), 'scale-cost-curve.png') : join(repoRoot, 'bench/results/scale-cost-curve.png');
}

async function runScaleOnly(provisioned: Provisioned, started: number): Promise<number> {
  let scale: ScaleResult | null;
  try {
    scale = await scaleOrFailure(provisioned);
  } finally {
    await provisioned.close();
    await onServer(`DROP DATABASE IF EXISTS "${provisioned.databaseName}" WITH (FORCE)`);
  }
  const file = join(repoRoot, 'bench/results', smoke ? 'smoke.json' : 'latest.json');
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const report = {
    ...previous,
    scale: scale?.scale ?? null,
    scaleDetails: scale
      ? { ...scale.details, curve: scale.curve, lists: scale.lists, date: new Date().toISOString(), machine: machine(), postgres: await postgresSettings() }
      : null,
    scaleFailures: [...failures],
    scaleElapsedSeconds: round((Date.now() - started) / 1000, 0),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`scale: ${JSON.stringify(scale?.scale ?? null)}\nwrote ${file} in ${report.scaleElapsedSeconds} s`);
  if (failures.length > 0) {
    console.error(`FAILED:\n  ${failures.join('\n  ')}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
