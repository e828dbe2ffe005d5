import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type ProfileWindow, monotonicMicros, printProfileSummary, summarizeCpuProfile } from './cpu-profile.js';
import { type Target, cpuSeconds, failures, logDir, option, round, rssMb, startServer, stopServer } from './harness.js';
import type { Provisioned } from './provision.js';
import { generateClients, tokenBody } from './scale-data.js';
import { pacedLoadInChild } from './server-windows.js';
import { pacedRotating, rotatingLoad } from './scale-load.js';

/**
 * Cache misses alone (`node dist/bench/src/experiment.js ES256 1 --misses <clients> [rate] [seconds]`,
 * options `--profile`, `--keep-profile=<copy of the profile>`, `--warm=<requests>`,
 * `--warm-passes=<passes over every client>`, `--jwks-first`, `--node=<node flag>`,
 * `--keep-log=<copy of the server log>`):
 * that many generated clients, a fresh Gatehouse, open-loop load round robin over all of them at
 * `rate` for `seconds` — every request a client the replica has not seen (while clients exceed
 * the rate × seconds) — and its latency, CPU per token and RSS. The million-client and cold-start
 * scenarios of the scale run in minutes instead of half an hour.
 */
export async function missExperiment(provisioned: Provisioned, all: Target[]): Promise<number> {
  const gatehouse = all.find((t) => t.name === 'gatehouse')!;
  const at = process.argv.indexOf('--misses');
  const count = Number(process.argv[at + 1]) || 100_000;
  const rate = Number(process.argv[at + 2]) || 7_500;
  const seconds = Number(process.argv[at + 3]) || 10;
  const seed = `misses-${randomBytes(4).toString('hex')}`;
  const started = Date.now();
  await generateClients(provisioned.databaseUrl, {
    tenantId: provisioned.tenantId,
    scopeId: provisioned.scopeId,
    seed,
    pepper: provisioned.pepper,
    from: 0,
    to: count,
  });
  console.log(`generated ${count} clients in ${round((Date.now() - started) / 1000, 1)} s`);
  const dir = join(logDir, 'miss-profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const profile = process.argv.includes('--profile');
  const nodeArgs = process.argv.filter((a) => a.startsWith('--node=')).map((a) => a.slice(7));
  const spawned = performance.now();
  const server = await startServer(gatehouse, [
    ...nodeArgs,
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-name=misses.cpuprofile'] : []),
  ]);
  console.log(`ready ${Math.round(performance.now() - spawned)} ms after spawn`);
  let window: ProfileWindow | undefined;
  try {
    // As the scale run's cold start does before its load: one request through Express (the JWKS).
    if (process.argv.includes('--jwks-first')) await (await fetch(server.url + gatehouse.jwksPath)).arrayBuffer();
    const warm = process.argv.find((a) => a.startsWith('--warm='));
    if (warm) await rotatingLoad(gatehouse, server, { seed, count: 1 }, { amount: Number(warm.slice(7)) });
    // Every client asked this many times first: the run then measures cache hits, not misses.
    const passes = option('warm-passes', 0);
    if (passes) await rotatingLoad(gatehouse, server, { seed, count }, { amount: passes * count });
    const before = cpuSeconds(server.pid);
    const postgresBefore = postgresCpu();
    const fromUs = monotonicMicros();
    const paced = process.argv.includes('--fixed')
      ? await pacedLoadInChild({ url: server.url + gatehouse.tokenPath, body: tokenBody(seed, 0), rate, seconds })
      : await pacedRotating(gatehouse, server, { seed, count }, rate, seconds);
    window = { fromUs, toUs: monotonicMicros() };
    const cpuUs = ((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, paced.ok);
    const postgresUs = (postgresCpuSince(postgresBefore) * 1e6) / Math.max(1, paced.ok);
    console.log(`${count} clients at ${rate}/s for ${seconds} s:`);
    const figures = { ...paced, cpuUsPerToken: round(cpuUs, 0), postgresCpuUsPerToken: round(postgresUs, 0), rssMb: rssMb(server.pid) };
    console.dir(figures, { maxArrayLength: null }); // every second of a five-minute run
  } finally {
    const keep = process.argv.find((a) => a.startsWith('--keep-log='));
    if (keep) copyFileSync(server.logFile, keep.slice(11));
    await stopServer(server);
  }
  if (!profile) return failures.length > 0 ? 1 : 0;
  // The measured load only (not the warm-up passes, which run closed loop).
  printProfileSummary(summarizeCpuProfile(join(dir, 'misses.cpuprofile'), 40, window));
  const keepProfile = process.argv.find((a) => a.startsWith('--keep-profile='));
  if (keepProfile) copyFileSync(join(dir, 'misses.cpuprofile'), keepProfile.slice(15));
  return failures.length > 0 ? 1 : 0;
}

/** CPU seconds of each PostgreSQL process on the machine (backends, walwriter, checkpointer, autovacuum) by pid. */
function postgresCpu(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') byPid.set(pid, cpuSeconds(Number(pid)));
    } catch {
      // the process ended meanwhile
    }
  }
  return byPid;
}

/** CPU seconds PostgreSQL used since `before` (processes that ended meanwhile are not counted). */
function postgresCpuSince(before: Map<string, number>): number {
  let total = 0;
  for (const [pid, seconds] of postgresCpu()) total += seconds - (before.get(pid) ?? 0);
  return total;
}
