import { existsSync, readFileSync } from 'node:fs';
import type { ComparisonFigures } from './comparison.js';
import { printProfileSummary } from './cpu-profile.js';
import { describeEventsOut } from './events-out.js';
import { type ServerName, printTable, round } from './harness.js';
import { ALGORITHMS, type Algorithm } from './protocol.js';
import type { ScaleResult } from './scale.js';

/** The comparison's ratios: tokens/s divided, and CPU per token divided the other way, per algorithm. */
export function comparisonRatios(c: ComparisonFigures) {
  const find = (server: ServerName, alg: Algorithm) => c.results.find((r) => r.server === server && r.alg === alg)!.tokensPerSec;
  const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 3) : 0);
  const cpu = (server: ServerName, alg: Algorithm) => c.cpuUsPerToken[`${server} ${alg}`]!;
  const per = <T>(of: (alg: Algorithm) => T) => Object.fromEntries(ALGORITHMS.map((alg) => [alg, of(alg)])) as Record<Algorithm, T>;
  return {
    ratios: per((alg) => ({
      vsOidcProvider: ratio(find('gatehouse', alg), find('oidc-provider', alg)),
      vsCeiling: ratio(find('gatehouse', alg), find('ceiling', alg)),
    })),
    /** Same ratios from CPU cost per token (inverse): Gatehouse's share of the others' efficiency. */
    ratiosByCpu: per((alg) => ({
      vsOidcProvider: ratio(cpu('oidc-provider', alg), cpu('gatehouse', alg)),
      vsCeiling: ratio(cpu('ceiling', alg), cpu('gatehouse', alg)),
    })),
  };
}

/** The scale part of an earlier results file, if any (`--no-scale` keeps it). */
export function previousScale(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const previous = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(previous).filter(([key]) => key.startsWith('scale')));
}

/** The end of a run's output: every figure of the results file worth a glance, RSS beside throughput. */
export function printSummary(c: ComparisonFigures, ratios: ReturnType<typeof comparisonRatios>, scale: ScaleResult | null): void {
  console.log('');
  printTable(c.results);
  for (const alg of ALGORITHMS) {
    const r = ratios.ratios[alg];
    const byCpu = ratios.ratiosByCpu[alg];
    console.log(
      `${alg}: Gatehouse = ${(r.vsOidcProvider * 100).toFixed(0)} % of oidc-provider, ${(r.vsCeiling * 100).toFixed(0)} % of the ceiling` +
        ` (by CPU per token: ${(byCpu.vsOidcProvider * 100).toFixed(0)} %, ${(byCpu.vsCeiling * 100).toFixed(0)} %)`,
    );
  }
  console.log(`p99 at half of the ES256 peak (open loop): Gatehouse ${c.p99AtHalfPeakMs} ms, ceiling ${c.p99AtHalfPeakCeilingMs} ms`);
  if (c.assertions) console.log(`client assertions, PS256 ÷ secret: ${c.assertions.ratio}`);
  if (c.sourceRanges) console.log(`${c.sourceRanges.ranges} allowed source ranges ÷ none: ${c.sourceRanges.ratio} (by CPU per token ${c.sourceRanges.ratioByCpu})`);
  console.log(`invitation sweep: ${c.sweep ? `${c.sweep.overdue} overdue of ${c.sweep.rows} in ${c.sweep.seconds} s` : 'not measured'}`);
  console.log(`outbox: ${c.outbox ? `${c.outbox.emails} emails at ${c.outbox.perSec}/s, exactly once: ${c.outbox.exactlyOnce}` : 'not measured'}`);
  const e = c.eventsOut;
  console.log(`events out: ${e ? describeEventsOut(e) : 'not measured'}`);
  for (const note of c.notes) console.log(`note: ${note}`);
  if (scale) {
    console.log('clients round robin: tokens/s and RSS of the replica');
    for (const p of [...scale.curve].sort((a, b) => a.clients - b.clients)) {
      console.log(`  ${String(p.clients).padStart(9)} clients: ${String(p.tokensPerSec).padStart(6)} tokens/s, RSS ${p.rssMb} MB`);
    }
    console.log(`scale: ${JSON.stringify(scale.scale)}`);
  }
  if (c.profile) {
    const p = c.profile;
    printProfileSummary({ ...p, topFrames: p.topFrames.slice(0, 15), byOrigin: p.byOrigin.slice(0, 10), attributed: p.attributed.slice(0, 15) });
  }
}
