import { randomBytes } from 'node:crypto';
import { sweepUnderTraffic } from './background.js';
import { type CurvePoint, type ListPoint } from './cost-plot.js';
import { type Provisioned, type Target, median, round, rssMb, settings, startServer, stopServer } from './harness.js';
import { type ScaleSizes, scaleSizes } from './plan.js';
import { type AdminScenario, measureAdmin } from './scale-admin-scenario.js';
import { checkGeneratedClients, checkGeneratedToken } from './scale-check.js';
import { generateClients, generateInvitations } from './scale-data.js';
import { type RotatingFigures, measureRotating, pacedRotating, pacedRotatingTraffic, rotatingLoad, sampleRss } from './scale-load.js';

export interface ScaleResult {
  scale: {
    clients100k: { ratio: number; rssMb: number };
    /** Past the cache's bound; null when the run has no such pass (the default run). */
    clients1m: { rssMb: number; rssGrowthMb: number; coldMissP99Ms: number } | null;
    coldStart: { firstTokenMs: number; p99First10sMs: number };
    /** The admin lists; null when the run has none (the default run). */
    admin: {
      usersSearchP99Ms: number | null;
      auditFilterP99Ms: number;
      awaitingScopesP99Ms: number;
      lastPageVsFirst: number;
      /** The slowest of the console's Users, Clients and Audit pages (p97.5, which bounds p95 from above). */
      consolePagesP95Ms: number | null;
    } | null;
    sweep10m: { seconds: number; tokenP99Ms: number };
    plot: string;
  };
  details: Record<string, unknown>;
  curve: CurvePoint[];
  lists: ListPoint[];
}


async function timed<T>(label: string, timings: Record<string, number>, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await work();
  timings[label] = round((Date.now() - started) / 1000, 1);
  console.log(`  scale: ${label} in ${timings[label]} s`);
  return result;
}

type ClientSet = (count: number) => { seed: string; count: number };

/**
 * The scale scenarios on one database (BENCHMARKS.md, "The method"): clients round robin
 * against one client, a cold start, the admin lists, clients past the cache's bound for minutes,
 * and the invitation sweep under token traffic — at the sizes of the run's mode (`plan.ts`; the
 * default run has no admin lists and no pass past the bound).
 */
export async function measureScale(p: Provisioned, gatehouse: Target, plotFile: string): Promise<ScaleResult> {
  const sizes = scaleSizes;
  const seed = `scale-${randomBytes(4).toString('hex')}`;
  const timings: Record<string, number> = {};
  const checks: string[] = [];
  const set: ClientSet = (count) => ({ seed, count });
  const generate = (from: number, to: number) =>
    generateClients(p.databaseUrl, { tenantId: p.tenantId, scopeId: p.scopeId, seed, pepper: p.pepper, from, to });

  await timed(`generate ${sizes.clients} clients`, timings, () => generate(0, sizes.clients));
  const generated = { tenantId: p.tenantId, seed, pepper: p.pepper, apiClientId: p.clientId, count: sizes.clients };
  checks.push(...(await checkGeneratedClients(p.databaseUrl, generated)));
  const rounds = await timed('clients rounds', timings, () => clientRounds(gatehouse, sizes, set));
  const { onePeak, manyMedian, curve } = rounds;
  await timed('curve points', timings, async () => {
    for (const n of sizes.curve.filter((c) => c > 1 && c < sizes.clients)) {
      const point = await measureRotating(gatehouse, set(n));
      curve.push({ clients: n, tokensPerSec: point.tokensPerSec, rssMb: point.rssMb });
    }
  });
  curve.push({ clients: sizes.clients, tokensPerSec: manyMedian.tokensPerSec, rssMb: manyMedian.rssMb });
  const coldStart = await timed('cold start', timings, () => coldStartPass(gatehouse, p.tenantId, sizes, set, onePeak, checks));
  const admin: AdminScenario | null =
    sizes.users > 0 ? await timed('admin lists', timings, () => measureAdmin(p, gatehouse, sizes, seed, checks)) : null;
  let clients1m: Awaited<ReturnType<typeof pastTheBound>> | null = null;
  if (sizes.big > 0) {
    await timed(`generate clients up to ${sizes.big}`, timings, () => generate(sizes.clients, sizes.big));
    clients1m = await timed('clients past the bound', timings, () => pastTheBound(gatehouse, sizes, set, onePeak));
    curve.push(clients1m.curvePoint);
  }
  await timed(`generate ${sizes.invitations} invitations`, timings, () =>
    generateInvitations(p.databaseUrl, p.tenantId, sizes.invitations, sizes.overdue),
  );
  const sweep = await timed('sweep under token traffic', timings, () => sweepPass(p, gatehouse, sizes, set, onePeak));

  return {
    scale: {
      clients100k: { ratio: round(manyMedian.tokensPerSec / onePeak, 3), rssMb: manyMedian.rssMb },
      clients1m: clients1m && { rssMb: clients1m.rssMb, rssGrowthMb: clients1m.rssGrowthMb, coldMissP99Ms: clients1m.coldMissP99Ms },
      coldStart: { firstTokenMs: coldStart.firstTokenMs, p99First10sMs: coldStart.p99First10sMs },
      admin: admin?.figures ?? null,
      sweep10m: { seconds: sweep.seconds, tokenP99Ms: sweep.tokenP99Ms },
      plot: plotFile,
    },
    details: {
      sizes,
      seed,
      timings,
      checks,
      oneClientRounds: rounds.one,
      manyClientRounds: rounds.many,
      coldStart,
      clients1m,
      sweep,
      adminPaths: admin?.paths ?? [],
      consolePages: admin?.consolePages ?? [],
      plans: admin?.plans ?? [],
      notes: admin?.notes ?? [],
    },
    curve,
    lists: admin?.lists ?? [],
  };
}

/** One client against all of them, round robin, in alternating rounds on fresh servers. */
async function clientRounds(gatehouse: Target, sizes: ScaleSizes, set: ClientSet) {
  const one: RotatingFigures[] = [];
  const many: RotatingFigures[] = [];
  for (let r = 0; r < settings.rounds; r++) {
    one.push(await measureRotating(gatehouse, set(1)));
    many.push(await measureRotating(gatehouse, set(sizes.clients)));
    console.log(
      `  scale round ${r + 1}: 1 client ${one.at(-1)!.tokensPerSec}/s (RSS ${one.at(-1)!.rssMb} MB), ` +
        `${sizes.clients} clients ${many.at(-1)!.tokensPerSec}/s (RSS ${many.at(-1)!.rssMb} MB)`,
    );
  }
  const onePeak = median(one.map((m) => m.tokensPerSec));
  const manyMedian = [...many].sort((a, b) => a.tokensPerSec - b.tokensPerSec)[Math.floor(many.length / 2)]!;
  const curve: CurvePoint[] = [{ clients: 1, tokensPerSec: onePeak, rssMb: median(one.map((m) => m.rssMb)) }];
  return { one, many, onePeak, manyMedian, curve };
}

/** A replica that starts while every client exists, under half the peak at once. */
async function coldStartPass(
  gatehouse: Target,
  tenantId: string,
  sizes: ScaleSizes,
  set: ClientSet,
  onePeak: number,
  checks: string[],
) {
  const server = await startServer(gatehouse);
  try {
    const ready = performance.now();
    checks.push(await checkGeneratedToken(gatehouse, server, tenantId, set(0).seed, sizes.clients - 1));
    const firstTokenMs = round(performance.now() - ready, 1);
    const paced = await pacedRotating(gatehouse, server, set(sizes.clients), onePeak / 2, sizes.coldSeconds);
    const { p99Ms, maxMs, p99BySecondMs, sendLagP99Ms, generatorPolicy } = paced;
    return { firstTokenMs, p99First10sMs: p99Ms, maxMs, p99BySecondMs, sendLagP99Ms, generatorPolicy };
  } finally {
    await stopServer(server);
  }
}

/** Clients past the cache's bound: every request a cold miss, for minutes, at half the peak. */
async function pastTheBound(gatehouse: Target, sizes: ScaleSizes, set: ClientSet, onePeak: number) {
  const server = await startServer(gatehouse);
  try {
    const sampler = sampleRss(server.pid, sizes.rssSampleMs);
    const paced = await pacedRotating(gatehouse, server, set(sizes.big), onePeak / 2, sizes.rssRunSeconds);
    sampler.stop();
    const lastRss = sampler.samples.at(-1)?.rssMb ?? 0;
    const baseline = sampler.samples.find((s) => s.atS >= sizes.growthFromS) ?? sampler.samples[0]!;
    const closed = await rotatingLoad(gatehouse, server, set(sizes.big), { seconds: settings.durationSeconds });
    const curvePoint = { clients: sizes.big, tokensPerSec: round(closed['2xx'] / closed.duration, 0), rssMb: rssMb(server.pid) };
    return {
      rssMb: lastRss,
      rssGrowthMb: round(lastRss - baseline.rssMb, 1),
      coldMissP99Ms: paced.p99Ms,
      p50Ms: paced.p50Ms,
      maxMs: paced.maxMs,
      p99BySecondMs: paced.p99BySecondMs,
      sendLagP99Ms: paced.sendLagP99Ms,
      generatorPolicy: paced.generatorPolicy,
      samples: sampler.samples,
      curvePoint,
    };
  } finally {
    await stopServer(server);
  }
}

/** The invitation sweep while tokens are issued at half the peak. */
async function sweepPass(p: Provisioned, gatehouse: Target, sizes: ScaleSizes, set: ClientSet, onePeak: number) {
  const server = await startServer(gatehouse);
  try {
    // Two passes: past the cache's bound (a million clients exist now, the preload took 150,000 of
    // them) a client is stored on its second request, so the traffic is a replica's steady state.
    await rotatingLoad(gatehouse, server, set(sizes.clients), { amount: 2 * sizes.clients });
    // One stream of paced traffic beside the sweep, measured from its first statement to its last.
    const { sweep: figures, traffic, orchestratorGc } = await sweepUnderTraffic(
      p.config,
      { rows: sizes.invitations, overdue: sizes.overdue },
      () => pacedRotatingTraffic(gatehouse, server, set(sizes.clients), onePeak / 2),
    );
    return {
      orchestratorGc,
      seconds: figures.seconds,
      tokenP99Ms: traffic.p99Ms,
      tokenMaxMs: traffic.maxMs,
      p99BySecondMs: traffic.p99BySecondMs,
      sendLagP99Ms: traffic.sendLagP99Ms,
      sendLagP99BySecondMs: traffic.sendLagP99BySecondMs,
      ownLagP99Ms: traffic.ownLagP99Ms,
      tokenP99FromSendMs: traffic.p99FromSendMs,
      p99FromSendBySecondMs: traffic.p99FromSendBySecondMs,
      waitedForConnection: traffic.waitedForConnection,
      generatorPolicy: traffic.generatorPolicy,
    };
  } finally {
    await stopServer(server);
  }
}
