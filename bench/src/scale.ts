import { randomBytes } from 'node:crypto';
import { sweepUnderTraffic } from './background.js';
import { type CurvePoint, type ListPoint } from './cost-plot.js';
import { type Provisioned, type Target, median, round, rssMb, settings, smoke, startServer, stopServer } from './harness.js';
import { type AdminScenario, measureAdmin } from './scale-admin-scenario.js';
import { checkGeneratedClients, checkGeneratedToken } from './scale-check.js';
import { generateClients, generateInvitations } from './scale-data.js';
import { type RotatingFigures, measureRotating, pacedRotating, pacedRotatingTraffic, rotatingLoad, sampleRss } from './scale-load.js';

/** Sizes of the scale run; smoke mode keeps the code path at a thousandth of the data. */
export const scaleSizes = smoke
  ? {
      clients: 1_000,
      big: 3_000,
      users: 3_000,
      userSteps: [300, 3_000],
      audit: 30_000,
      awaiting: 200,
      invitations: 30_000,
      overdue: 3_000,
      curve: [1, 1_000, 3_000],
      rssRunSeconds: 1,
      rssSampleMs: 500,
      growthFromS: 0.5,
      coldSeconds: 1,
    }
  : {
      clients: 100_000,
      big: 1_000_000,
      users: 1_000_000,
      userSteps: [1_000, 10_000, 100_000, 1_000_000],
      audit: 10_000_000,
      awaiting: 1_000,
      invitations: 10_000_000,
      overdue: 1_000_000,
      curve: [1, 1_000, 10_000, 100_000, 1_000_000],
      rssRunSeconds: 300,
      rssSampleMs: 10_000,
      growthFromS: 60,
      coldSeconds: 10,
    };

export interface ScaleResult {
  scale: {
    clients100k: { ratio: number; rssMb: number };
    clients1m: { rssMb: number; rssGrowthMb: number; coldMissP99Ms: number };
    coldStart: { firstTokenMs: number; p99First10sMs: number };
    admin: {
      usersSearchP99Ms: number | null;
      auditFilterP99Ms: number;
      awaitingScopesP99Ms: number;
      lastPageVsFirst: number;
      /** The slowest of the console's Users, Clients and Audit pages (p97.5, which bounds p95 from above). */
      consolePagesP95Ms: number | null;
    };
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

/**
 * The scale scenarios of issue-sized data on one database (see BENCHMARKS.md, "Scale"): clients
 * round robin against one client, a cold start, the admin lists, a million clients past the
 * cache's bound for minutes, and the invitation sweep under token traffic.
 */
export async function measureScale(p: Provisioned, gatehouse: Target, plotFile: string): Promise<ScaleResult> {
  const sizes = scaleSizes;
  const seed = `scale-${randomBytes(4).toString('hex')}`;
  const timings: Record<string, number> = {};
  const checks: string[] = [];
  const set = (count: number) => ({ seed, count });
  const generate = (from: number, to: number) =>
    generateClients(p.databaseUrl, { tenantId: p.tenantId, scopeId: p.scopeId, seed, pepper: p.pepper, from, to });

  await timed(`generate ${sizes.clients} clients`, timings, () => generate(0, sizes.clients));
  checks.push(
    ...(await checkGeneratedClients(p.databaseUrl, {
      tenantId: p.tenantId,
      seed,
      pepper: p.pepper,
      apiClientId: p.clientId,
      count: sizes.clients,
    })),
  );

  // One client against all of them, round robin, in alternating rounds on fresh servers.
  const one: RotatingFigures[] = [];
  const many: RotatingFigures[] = [];
  await timed('clients rounds', timings, async () => {
    for (let r = 0; r < settings.rounds; r++) {
      one.push(await measureRotating(gatehouse, set(1)));
      many.push(await measureRotating(gatehouse, set(sizes.clients)));
      console.log(
        `  scale round ${r + 1}: 1 client ${one.at(-1)!.tokensPerSec}/s, ${sizes.clients} clients ${many.at(-1)!.tokensPerSec}/s, RSS ${many.at(-1)!.rssMb} MB`,
      );
    }
  });
  const onePeak = median(one.map((m) => m.tokensPerSec));
  const manyMedian = [...many].sort((a, b) => a.tokensPerSec - b.tokensPerSec)[Math.floor(many.length / 2)]!;
  const curve: CurvePoint[] = [{ clients: 1, tokensPerSec: onePeak, rssMb: median(one.map((m) => m.rssMb)) }];
  for (const n of sizes.curve.filter((c) => c > 1 && c < sizes.clients)) {
    const point = await measureRotating(gatehouse, set(n));
    curve.push({ clients: n, tokensPerSec: point.tokensPerSec, rssMb: point.rssMb });
  }
  curve.push({ clients: sizes.clients, tokensPerSec: manyMedian.tokensPerSec, rssMb: manyMedian.rssMb });

  // Cold start: a replica that starts while every client exists, under half the peak at once.
  const coldStart = await timed('cold start', timings, async () => {
    const server = await startServer(gatehouse);
    try {
      const ready = performance.now();
      checks.push(await checkGeneratedToken(gatehouse, server, p.tenantId, seed, sizes.clients - 1));
      const firstTokenMs = round(performance.now() - ready, 1);
      const paced = await pacedRotating(gatehouse, server, set(sizes.clients), onePeak / 2, sizes.coldSeconds);
      const { p99Ms, maxMs, p99BySecondMs, sendLagP99Ms, generatorPolicy } = paced;
      return { firstTokenMs, p99First10sMs: p99Ms, maxMs, p99BySecondMs, sendLagP99Ms, generatorPolicy };
    } finally {
      await stopServer(server);
    }
  });

  const admin: AdminScenario = await timed('admin lists', timings, () =>
    measureAdmin(p, gatehouse, sizes, seed, checks),
  );

  // A million clients, past the cache's bound: every request a cold miss, for minutes, at half the peak.
  await timed(`generate clients up to ${sizes.big}`, timings, () => generate(sizes.clients, sizes.big));
  const clients1m = await timed('clients past the bound', timings, async () => {
    const server = await startServer(gatehouse);
    try {
      const sampler = sampleRss(server.pid, sizes.rssSampleMs);
      const paced = await pacedRotating(gatehouse, server, set(sizes.big), onePeak / 2, sizes.rssRunSeconds);
      sampler.stop();
      const lastRss = sampler.samples.at(-1)?.rssMb ?? 0;
      const baseline = sampler.samples.find((s) => s.atS >= sizes.growthFromS) ?? sampler.samples[0]!;
      const closed = await rotatingLoad(gatehouse, server, set(sizes.big), { seconds: settings.durationSeconds });
      curve.push({
        clients: sizes.big,
        tokensPerSec: round(closed['2xx'] / closed.duration, 0),
        rssMb: rssMb(server.pid),
      });
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
      };
    } finally {
      await stopServer(server);
    }
  });

  // The invitation sweep over ten million rows while tokens are issued at half the peak.
  await timed(`generate ${sizes.invitations} invitations`, timings, () =>
    generateInvitations(p.databaseUrl, p.tenantId, sizes.invitations, sizes.overdue),
  );
  const sweep = await timed('sweep under token traffic', timings, async () => {
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
  });

  return {
    scale: {
      clients100k: { ratio: round(manyMedian.tokensPerSec / onePeak, 3), rssMb: manyMedian.rssMb },
      clients1m: { rssMb: clients1m.rssMb, rssGrowthMb: clients1m.rssGrowthMb, coldMissP99Ms: clients1m.coldMissP99Ms },
      coldStart: { firstTokenMs: coldStart.firstTokenMs, p99First10sMs: coldStart.p99First10sMs },
      admin: admin.figures,
      sweep10m: { seconds: sweep.seconds, tokenP99Ms: sweep.tokenP99Ms },
      plot: plotFile,
    },
    details: {
      sizes,
      seed,
      timings,
      checks,
      oneClientRounds: one,
      manyClientRounds: many,
      coldStart,
      clients1m,
      sweep,
      adminPaths: admin.paths,
      consolePages: admin.consolePages,
      plans: admin.plans,
      notes: admin.notes,
    },
    curve,
    lists: admin.lists,
  };
}
