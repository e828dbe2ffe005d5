import { type AssertionFigures, measureAssertions } from './assertions.js';
import { type OutboxFigures, type SweepFigures, measureOutbox, measureSweep } from './background.js';
import type { ProfileSummary } from './cpu-profile.js';
import { type EventsOutFigures, measureEventsOut } from './events-out.js';
import { type FederatedFigures, printFederated } from './federated-assertions.js';
import { type SourceRangeFigures, printSourceRanges } from './source-ranges.js';
import { measureTokenPathFeatures } from './token-path-features.js';
import { type LastUseFigures, describeLastUse, lastUseFrom, withoutLastUse } from './last-use.js';
import {
  type Measurement,
  type Provisioned,
  type ServerName,
  type ServerResult,
  measure,
  medianMeasurement,
  round,
  settings,
} from './harness.js';
import { backgroundSizes, eventsOutWrites, mode, profiles } from './plan.js';
import { targets } from './provision.js';
import { ALGORITHMS } from './protocol.js';
import { p99AtRate, profileGatehouse } from './server-windows.js';

export interface ComparisonFigures {
  results: ServerResult[];
  /** RSS right after start and after the warm-up: baseline, and whether it still grows under load. */
  rssAtReadyMb: Record<string, number>;
  rssAfterWarmupMb: Record<string, number>;
  /** Server CPU time per token (all threads): robust against a busy machine, unlike tokens/s. */
  cpuUsPerToken: Record<string, number>;
  /** tokens/s of every round, to show the spread behind each median. */
  roundsTokensPerSec: Record<string, number[]>;
  /** p99 of each paced window at half peak; the reported figure is their median. */
  p99WindowsMs: Record<string, number[]>;
  p99AtHalfPeakMs: number | null;
  p99AtHalfPeakCeilingMs: number | null;
  profile: ProfileSummary | null;
  assertions: AssertionFigures | null;
  /** Federated assertions (an external issuer's token, its keys cached) against secrets. */
  federated: FederatedFigures | null;
  /** 50 allowed source ranges on the client against none (DESIGN §12; target ≥ 0.97×). */
  sourceRanges: SourceRangeFigures | null;
  /** §12: tokens/s with last-use tracking on against off, the same server in the same run (target ≥ 0.97×). */
  lastUse: LastUseFigures | null;
  sweep: SweepFigures | null;
  outbox: OutboxFigures | null;
  /** §13: admin writes with two webhook subscriptions and syslog streaming on. */
  eventsOut: EventsOutFigures | null;
  notes: string[];
}

/** Runs `work` as the phase `name`: its seconds go to `phaseSeconds` and the console. */
export async function phase<T>(name: string, phaseSeconds: Record<string, number>, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    phaseSeconds[name] = round((Date.now() - started) / 1000, 1);
    console.log(`  (${name}: ${phaseSeconds[name]} s)`);
  }
}

/**
 * Gatehouse against node-oidc-provider and a minimal ceiling, ES256 and RS256, in rounds that
 * alternate between the servers; then Gatehouse's p99 at half its peak, its CPU profile (not in
 * the default run), client and federated assertions against secrets, 50 allowed source ranges
 * against none (last-use tracking on against off is part of the ES256 rounds), the invitation sweep, the mail outbox and events out.
 */
export async function runComparison(provisioned: Provisioned, phaseSeconds: Record<string, number>): Promise<ComparisonFigures> {
  const figures: ComparisonFigures = {
    results: [],
    rssAtReadyMb: {},
    rssAfterWarmupMb: {},
    cpuUsPerToken: {},
    roundsTokensPerSec: {},
    p99WindowsMs: {},
    p99AtHalfPeakMs: null,
    p99AtHalfPeakCeilingMs: null,
    profile: null,
    assertions: null,
    federated: null,
    sourceRanges: null,
    lastUse: null,
    sweep: null,
    outbox: null,
    eventsOut: null,
    notes: [],
  };
  for (const alg of ALGORITHMS) await phase(`${alg} rounds`, phaseSeconds, () => algorithmRounds(provisioned, alg, figures));
  await provisioned.setAlgorithm('ES256');
  const es256 = targets(provisioned, 'ES256');
  const gatehouse = es256.find((t) => t.name === 'gatehouse')!;
  // Gatehouse's p99 at half its ES256 peak, and the ceiling's at half its own as the noise floor of this machine.
  await phase('p99 at half peak', phaseSeconds, async () => {
    for (const target of es256.filter((t) => t.name !== 'oidc-provider')) {
      const peak = figures.results.find((r) => r.server === target.name && r.alg === 'ES256')!.tokensPerSec;
      const { p99Ms, windowsMs } = await p99AtRate(target, 'ES256', peak / 2);
      console.log(`  ${target.name} ES256 at ${Math.round(peak / 2)} tokens/s (half its peak): p99 ${p99Ms} ms (windows: ${windowsMs.join(', ')} ms)`);
      figures.p99WindowsMs[target.name] = windowsMs;
      if (target.name === 'gatehouse') figures.p99AtHalfPeakMs = p99Ms;
      else figures.p99AtHalfPeakCeilingMs = p99Ms;
    }
  });
  if (profiles) figures.profile = await phase('CPU profile', phaseSeconds, () => profileGatehouse(gatehouse));
  // Client assertions (certificate credentials, jti spent in Postgres) against secrets, same server, same run.
  figures.assertions = await phase('client assertions', phaseSeconds, async () => {
    const { windows: _windows, ...assertions } = await measureAssertions(gatehouse, provisioned.certificates, provisioned.clientId, gatehouse.body);
    for (const [alg, run] of Object.entries(assertions.byAlgorithm)) {
      console.log(
        `  gatehouse client assertions, ${alg}: ${run.tokensPerSec} tokens/s vs ${assertions.secretTokensPerSec} with a secret ` +
          `(${run.ratio}×; by CPU per token ${run.ratioByCpu}×: ${run.cpuUsPerToken} vs ${assertions.cpuUsPerTokenSecret} µs)`,
      );
    }
    return assertions;
  });
  await phase('federated assertions and source ranges', phaseSeconds, async () => {
    const measured = await measureTokenPathFeatures(provisioned, gatehouse, 'ES256');
    figures.federated = printFederated(measured.federated);
    figures.sourceRanges = printSourceRanges(measured.sourceRanges);
  });
  await background(provisioned, figures, phaseSeconds);
  return figures;
}

/**
 * Rounds of one algorithm, alternating ceiling → Gatehouse → oidc-provider on fresh processes; medians into `figures`.
 * In the ES256 rounds Gatehouse without last-use tracking runs right after Gatehouse: DESIGN §12's cost of last use.
 */
async function algorithmRounds(provisioned: Provisioned, alg: (typeof ALGORITHMS)[number], figures: ComparisonFigures): Promise<void> {
  await provisioned.setAlgorithm(alg);
  // Rounds alternate between the servers, so a slow minute of the machine hits all of them.
  const rounds = new Map<ServerName, Measurement[]>();
  const untracked: Measurement[] = [];
  const report = (name: string, round: number, measured: Measurement) =>
    console.log(
      `  ${name} ${alg} round ${round}: ${measured.result.tokensPerSec} tokens/s, ${measured.cpuUsPerToken} µs CPU per token, RSS ${measured.result.rssMb} MB`,
    );
  for (let round = 1; round <= settings.rounds; round++) {
    for (const target of targets(provisioned, alg)) {
      const measured = await measure(target, alg);
      rounds.set(target.name, [...(rounds.get(target.name) ?? []), measured]);
      report(target.name, round, measured);
      if (alg !== 'ES256' || target.name !== 'gatehouse') continue;
      untracked.push(await measure(withoutLastUse(target), alg));
      report('gatehouse without last-use tracking', round, untracked.at(-1)!);
    }
  }
  if (untracked.length) {
    figures.lastUse = lastUseFrom(rounds.get('gatehouse')!, untracked);
    console.log(`  gatehouse ES256: ${describeLastUse(figures.lastUse)}`);
  }
  for (const [name, measurements] of rounds) {
    const median = medianMeasurement(measurements);
    figures.results.push(median.result);
    figures.roundsTokensPerSec[`${name} ${alg}`] = measurements.map((m) => m.result.tokensPerSec);
    figures.rssAtReadyMb[`${name} ${alg}`] = median.rssAtReadyMb;
    figures.rssAfterWarmupMb[`${name} ${alg}`] = median.rssAfterWarmupMb;
    figures.cpuUsPerToken[`${name} ${alg}`] = median.cpuUsPerToken;
  }
}

/** The invitation sweep and the mail outbox: measured when their services work, else null with a note. */
async function background(provisioned: Provisioned, figures: ComparisonFigures, phaseSeconds: Record<string, number>): Promise<void> {
  const sizes = backgroundSizes[mode];
  await phase('invitation sweep', phaseSeconds, async () => {
    try {
      figures.sweep = await measureSweep(provisioned.config, provisioned.tenantId, sizes.rows, sizes.overdue);
      console.log(`  invitation sweep: ${figures.sweep.overdue} of ${figures.sweep.rows} expired in ${figures.sweep.seconds} s`);
    } catch (error) {
      figures.notes.push(`sweep not measured: ${(error as Error).message}`);
    }
  });
  await phase('outbox', phaseSeconds, async () => {
    try {
      figures.outbox = await measureOutbox(provisioned.config, provisioned.tenantId, sizes.emails);
      console.log(`  outbox: ${figures.outbox.emails} emails at ${figures.outbox.perSec}/s, exactly once: ${figures.outbox.exactlyOnce}`);
    } catch (error) {
      figures.notes.push(`outbox not measured: ${(error as Error).message}`);
    }
  });
  await phase('events out', phaseSeconds, async () => {
    try {
      await provisioned.setAlgorithm('ES256');
      const gatehouse = targets(provisioned, 'ES256').find((t) => t.name === 'gatehouse')!;
      const tokenRate = async () => (await measure(gatehouse, 'ES256')).result.tokensPerSec;
      figures.eventsOut = await measureEventsOut(provisioned.config, provisioned.tenantId, eventsOutWrites[mode], tokenRate);
      console.log(`  events out: ${JSON.stringify(figures.eventsOut)}`);
    } catch (error) {
      figures.notes.push(`events out not measured: ${(error as Error).message}`);
    }
  });
}
