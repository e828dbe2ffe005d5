import { type Mode, type RunSettings, type ScaleSizes, backgroundSizes, eventsOutWrites, mode, profiles, scaleSizes, settings } from './plan.js';

/** A phase of a run and the seconds it is expected to take. */
export interface PlannedPhase {
  name: string;
  seconds: number;
}

/**
 * Seconds of the parts that do not scale with the run's settings, as they took on the host of the
 * run of record (2026-11-27, night: the ceiling at ≈ 18,000 ES256 tokens a second). A server's
 * start counts its boot, its first verified token and its stop (Gatehouse: also the warm-up of
 * 20,000 requests it sends itself, 1,000 in smoke runs); a paced window its own process, its second
 * against a sink and its 2 s lead-in. On a host half as fast the starts, the signing ahead and the
 * data generation take about twice as long; the measured seconds do not change.
 */
const FAST_HOST = {
  start: { gatehouse: 6, ceiling: 1, 'oidc-provider': 2 },
  smokeGatehouseStart: 2,
  preloadPer100k: 1.5,
  tokensPerSec: 16_000,
  windowOverhead: 4.5,
  provision: 10,
  /** RSA-2048 (PS256) and P-256 signatures of the assertions signed ahead, on two threads. */
  signUs: { PS256: 250, ES256: 25 },
  /** Data, per million rows: clients with secrets and grants, users, audit events, invitations. */
  generatePerMillion: { clients: 47, users: 20, audit: 8.8, invitations: 8.5, sweepRows: 20 },
  sweepPerMillionOverdue: 24.5,
  sweepCheckPer10M: 8,
  /** Admin paths measured one by one (the first and the last page together), then console pages. */
  adminPaths: 9,
  consolePages: 6,
  outboxPerSec: 550,
  /** §13's phase: admin writes (with and without subscriptions) and webhook deliveries per second. */
  adminWritesPerSec: 400,
  deliveriesPerSec: 500,
  plot: 5,
};
type Host = typeof FAST_HOST;

/** The same host `slower` times as slow: what is not a fixed number of seconds takes that much longer. */
function hostAt(slower: number): Host {
  const h = FAST_HOST;
  const times = <T extends Record<string, number>>(o: T) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v * slower])) as T;
  return {
    ...h,
    start: times(h.start),
    smokeGatehouseStart: h.smokeGatehouseStart * slower,
    preloadPer100k: h.preloadPer100k * slower,
    tokensPerSec: h.tokensPerSec / slower,
    windowOverhead: h.windowOverhead + 1.5 * (slower - 1),
    provision: h.provision * slower,
    signUs: times(h.signUs),
    generatePerMillion: times(h.generatePerMillion),
    sweepPerMillionOverdue: h.sweepPerMillionOverdue * slower,
    sweepCheckPer10M: h.sweepCheckPer10M * slower,
    outboxPerSec: h.outboxPerSec / slower,
    adminWritesPerSec: h.adminWritesPerSec / slower,
    deliveriesPerSec: h.deliveriesPerSec / slower,
    plot: h.plot * slower,
  };
}

const gatehouseStart = (h: Host, m: Mode) => (m === 'smoke' ? h.smokeGatehouseStart : h.start.gatehouse);
const preload = (h: Host, clients: number) => (Math.min(clients, 150_000) / 100_000) * h.preloadPer100k;

function comparisonPhases(h: Host, m: Mode, s: RunSettings): PlannedPhase[] {
  const load = s.warmupSeconds + s.durationSeconds;
  const gh = gatehouseStart(h, m);
  const window = s.durationSeconds + (m === 'smoke' ? 0.5 : h.windowOverhead);
  const round = (servers: number[]) => s.rounds * servers.reduce((sum, start) => sum + start + load, 0);
  if (m === 'quick') return [{ name: 'ES256 rounds (Gatehouse, ceiling)', seconds: round([h.start.ceiling, gh]) }];
  const three = [h.start.ceiling, gh, h.start['oidc-provider']];
  const signed = 0.75 * h.tokensPerSec * load * ((h.signUs.PS256 + h.signUs.ES256) / 2) * 1e-6;
  const { rows: sweepRows, emails } = backgroundSizes[m];
  return [
    { name: 'ES256 rounds', seconds: round([...three, gh]) }, // and Gatehouse without last-use tracking
    { name: 'RS256 rounds', seconds: round(three) },
    { name: 'p99 at half peak', seconds: gh + h.start.ceiling + 2 * load + 2 * s.rounds * window },
    ...(profiles ? [{ name: 'CPU profile', seconds: gh + load + 1 }] : []),
    { name: 'client assertions', seconds: gh + 3 * load + (m === 'smoke' ? 1 : signed) },
    {
      name: 'federated assertions and source ranges',
      seconds: gh + (m === 'smoke' ? 0 : 2 * s.rounds * s.warmupSeconds) + 3 * s.rounds * s.durationSeconds + 1,
    },
    { name: 'invitation sweep', seconds: (sweepRows / 1e6) * h.generatePerMillion.sweepRows + 2 },
    { name: 'outbox', seconds: emails / h.outboxPerSec + 3 },
    { name: 'events out', seconds: gh + load + eventsOutWrites[m] * (2 / h.adminWritesPerSec + 2 / h.deliveriesPerSec) + 3 },
  ];
}

function scalePhases(h: Host, m: Mode, s: RunSettings, z: ScaleSizes): PlannedPhase[] {
  const gh = gatehouseStart(h, m) + preload(h, z.clients);
  const pass = (clients: number) => clients / h.tokensPerSec;
  const g = h.generatePerMillion;
  const between = z.curve.filter((c) => c > 1 && c < z.clients);
  const phases: PlannedPhase[] = [
    { name: `generate ${z.clients} clients`, seconds: (z.clients / 1e6) * g.clients + 1 },
    {
      name: 'clients rounds',
      seconds: s.rounds * (2 * gh + s.warmupSeconds + 2 * s.durationSeconds + pass(z.clients)),
    },
    { name: 'curve points', seconds: between.reduce((sum, c) => sum + gh + pass(c) + s.durationSeconds, 0) },
    { name: 'cold start', seconds: gh + z.coldSeconds + 1.5 },
  ];
  if (z.users > 0) {
    const perPath = m === 'smoke' ? 0.3 : 6;
    const steps = z.userSteps.length + h.adminPaths + h.consolePages;
    phases.push({
      name: 'admin lists',
      seconds: 10 + (z.users / 1e6) * g.users + (z.audit / 1e6) * g.audit + steps * perPath,
    });
  }
  if (z.big > 0) {
    phases.push({ name: `generate clients up to ${z.big}`, seconds: ((z.big - z.clients) / 1e6) * g.clients });
    phases.push({
      name: 'clients past the bound',
      seconds: gatehouseStart(h, m) + preload(h, z.big) + z.rssRunSeconds + s.durationSeconds + 5,
    });
  }
  const sweep = (z.overdue / 1e6) * h.sweepPerMillionOverdue + (z.invitations / 1e7) * h.sweepCheckPer10M;
  phases.push({ name: `generate ${z.invitations} invitations`, seconds: (z.invitations / 1e6) * g.invitations });
  phases.push({ name: 'sweep under token traffic', seconds: gh + 2 * pass(z.clients) + 2 + sweep });
  phases.push({ name: 'cost curve plot', seconds: h.plot });
  return phases;
}

/** The phases the current command line runs, with their expected seconds on a host `slower` times as slow as the run of record's. */
export function plannedPhases(slower = 1): PlannedPhase[] {
  const h = hostAt(slower);
  const scaleOnly = process.argv.includes('--scale-only');
  const noScale = process.argv.includes('--no-scale') || mode === 'quick';
  const phases = [
    { name: 'build and provision', seconds: h.provision },
    ...(scaleOnly ? [] : comparisonPhases(h, mode, settings)),
    ...(noScale ? [] : scalePhases(h, mode, settings, scaleSizes)),
  ];
  return phases.map((p) => ({ name: p.name, seconds: Math.round(p.seconds) }));
}

/**
 * `--plan`: what the run would do and for how long, without running it — on the host of the run of
 * record and on one half as fast (the slowest hosts the runs of record met, 2026-11-26 and 27).
 */
export function printPlan(): void {
  const fast = plannedPhases(1);
  const slow = plannedPhases(2);
  const total = (phases: PlannedPhase[]) => phases.reduce((sum, p) => sum + p.seconds, 0);
  const { connections, warmupSeconds, durationSeconds, rounds } = settings;
  console.log(
    `npm run bench, ${mode} mode: ${connections} connections, ${warmupSeconds} s warm-up, ${durationSeconds} s runs, ${rounds} round(s)`,
  );
  console.log(`  ${'phase'.padEnd(38)} ${'fast host'.padStart(10)} ${'half as fast'.padStart(13)}`);
  const row = (name: string, a: number, b: number) => console.log(`  ${name.padEnd(38)} ${`${a} s`.padStart(10)} ${`${b} s`.padStart(13)}`);
  fast.forEach((p, i) => row(p.name, p.seconds, slow[i]!.seconds));
  row('total', total(fast), total(slow));
  console.log(
    `  = ${(total(fast) / 60).toFixed(1)} min on a host whose ceiling signs ≈ 18,000 ES256 tokens/s (the run of record's), ` +
      `${(total(slow) / 60).toFixed(1)} min on one half as fast`,
  );
}
