import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SWEEP_BATCH_SIZE } from '@gatehouse/invitations';
import { type SweepFigures, sweepUnderTraffic, timeSweep } from './background.js';
import { type Target, onServer, option, postgresSettings, startServer, stopServer, textOption } from './harness.js';
import type { Provisioned } from './provision.js';
import { generateAuditEvents, generateClients, generateInvitations, generateUsers, withClient } from './scale-data.js';
import { pacedRotatingTraffic, rotatingLoad } from './scale-load.js';

/**
 * The invitation sweep alone at scale, no token traffic (`node dist/bench/src/experiment.js ES256 1
 * --sweep <invitations> <overdue> [--audit=<events>] [--batch=<rows>] [--repeat=<n>]`):
 * 100,000 users, `--audit` audit events (default none), the invitations as the scale run generates
 * them, then the real sweep, timed and checked, `--repeat` times on freshly generated invitations.
 * Prints Postgres' block reads and hits, checkpoints and WAL written over each sweep. With
 * `--traffic=<clients>` (and `--rate=<tokens/s>`, `--passes=<warm passes>`), a fresh Gatehouse
 * serves that many generated clients round robin, open loop, one stream measured from the sweep's
 * start to its end, as the scale run's sweep scenario does. Each `--sql=<statement>` runs on the database
 * before the sweeps (a schema variant to compare). `--rests=<ratio>,<ratio>…` sweeps once with each
 * rest ratio (see `SWEEP_REST_RATIO`), in that order, instead of `--repeat`; `--batches=<rows>,<rows>…`
 * likewise with each batch size (both given: pairs in order). `--replica-cores=<list>` moves the
 * replica from core 1 to those cores (`taskset -c` syntax) once it is ready; `--replica-flags=<flag>,…`
 * starts it with those Node flags, and with `--trace-gc` among them prints its collections that
 * paused it for 10 ms or more, in seconds from the end of the warm passes (the measured traffic and
 * the sweep begin once the traffic's lead-in is over, a second or two later). `--realtime-generator`
 * (as for `npm run bench`) runs the generator's sending thread at real-time priority.
 */
export async function sweepExperiment(p: Provisioned, all: Target[]): Promise<number> {
  const at = process.argv.indexOf('--sweep');
  const invitations = Number(process.argv[at + 1] ?? 1_000_000);
  const overdue = Number(process.argv[at + 2] ?? 100_000);
  const audit = option('audit', 0);
  const t0 = Date.now();
  await generateUsers(p.databaseUrl, p.tenantId, 1, 100_000);
  if (audit > 0) await generateAuditEvents(p.databaseUrl, p.tenantId, audit, ['00000000-0000-4000-8000-000000000001']);
  console.log(`users${audit ? ' and audit events' : ''} generated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const traffic = option('traffic', 0);
  const seed = 'sweep-traffic';
  if (traffic > 0) {
    const t2 = Date.now();
    await generateClients(p.databaseUrl, { tenantId: p.tenantId, scopeId: p.scopeId, seed, pepper: p.pepper, from: 0, to: traffic });
    console.log(`${traffic} clients generated in ${((Date.now() - t2) / 1000).toFixed(1)} s`);
  }
  console.log(await postgresSettings());
  for (const sql of process.argv.filter((a) => a.startsWith('--sql=')).map((a) => a.slice(6))) {
    await withClient(p.databaseUrl, (db) => db.query(sql));
    console.log(`ran: ${sql}`);
  }
  const rests = list('rests');
  const batches = list('batches');
  const variants = Math.max(rests?.length ?? 0, batches?.length ?? 0);
  for (let i = 0; i < (variants || option('repeat', 1)); i++) {
    const t1 = Date.now();
    await generateInvitations(p.databaseUrl, p.tenantId, invitations, overdue);
    console.log(`${invitations} invitations generated in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    await onServer('CHECKPOINT');
    const before = await stats(p.databaseUrl);
    const batchSize = batches?.[i] ?? option('batch', SWEEP_BATCH_SIZE);
    const sweep = { rows: invitations, overdue, batchSize, restRatio: rests?.[i] };
    const figures =
      traffic > 0
        ? await underTraffic(p, all, { seed, count: traffic }, option('rate', 3600), option('passes', 1), sweep)
        : await timeSweep(p.config, invitations, overdue, sweep);
    const after = await stats(p.databaseUrl);
    const delta = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k]!]));
    const variant = `${rests ? ` resting ${rests[i] ?? 'as the product does'}` : ''}${batches ? ` in batches of ${batchSize}` : ''}`;
    console.log(`sweep${variant}: ${figures.overdue} of ${figures.rows} in ${figures.seconds} s`, delta);
  }
  return 0;
}

/**
 * The `--trace-gc` lines of `logFile` for collections of 10 ms or more, their time shifted to
 * seconds from `fromMs` after the spawn (the process's own clock starts a few ms after it).
 */
function longCollections(logFile: string, fromMs: number): string {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .map((line) => /\] +([\d.]+) ms: (.*?), ([\d.]+) \/ [\d.]+ ms/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[3]) >= 10)
    .map((m) => `    ${((Number(m[1]) - fromMs) / 1000).toFixed(2)} s: ${m[3]} ms ${m[2]}`)
    .join('\n');
}

/** `--<name>=a,b,…` as numbers, or undefined. */
function list(name: string): number[] | undefined {
  return textOption(name)?.split(',').map(Number);
}

async function stats(url: string): Promise<Record<string, number>> {
  return withClient(url, async (db) => {
    const { rows } = await db.query<Record<string, string>>(
      `SELECT d.blks_read, d.blks_hit, b.checkpoints_timed + b.checkpoints_req AS checkpoints, b.buffers_backend,
              b.buffers_clean, b.buffers_checkpoint, pg_current_wal_lsn() - '0/0'::pg_lsn AS wal_bytes
         FROM pg_stat_database d, pg_stat_bgwriter b WHERE d.datname = current_database()`,
    );
    return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
  });
}

/** Runs the sweep while a fresh Gatehouse serves paced traffic, one stream measured over the sweep; prints it. */
async function underTraffic(
  p: Provisioned,
  all: Target[],
  clients: { seed: string; count: number },
  rate: number,
  passes: number,
  sweep: Parameters<typeof sweepUnderTraffic>[1],
): Promise<SweepFigures> {
  const gatehouse = all.find((t) => t.name === 'gatehouse')!;
  const flags = textOption('replica-flags')?.split(',') ?? [];
  const spawnedAt = Date.now();
  const server = await startServer(gatehouse, flags);
  try {
    const cores = textOption('replica-cores');
    if (cores) execFileSync('taskset', ['-a', '-p', '-c', cores, String(server.pid)], { stdio: 'ignore' });
    if (passes > 0) await rotatingLoad(gatehouse, server, clients, { amount: clients.count * passes });
    const warmAt = Date.now() - spawnedAt;
    const { sweep: figures, traffic: t, orchestratorGc } = await sweepUnderTraffic(p.config, sweep, () =>
      pacedRotatingTraffic(gatehouse, server, clients, rate),
    );
    console.log(`  traffic: p50 ${t.p50Ms} p99 ${t.p99Ms} max ${t.maxMs} ms; p99 by second ${t.p99BySecondMs.join(' ')}`);
    console.log(`  the generator's lateness (${t.generatorPolicy}): p99 ${t.sendLagP99Ms} ms; by second ${t.sendLagP99BySecondMs.join(' ')}`);
    console.log(`  from the write (the generator's own lateness left out): p99 ${t.p99FromSendMs} ms; by second ${t.p99FromSendBySecondMs.join(' ')}`);
    console.log(`  of it, with a connection free when due: p99 ${t.ownLagP99Ms} ms; due with every connection busy: ${t.waitedForConnection} of ${t.sent}`);
    console.log('  this process collected:', orchestratorGc);
    if (flags.includes('--trace-gc')) {
      const pauses = longCollections(server.logFile, warmAt);
      console.log(`  the replica's long collections, from the end of the warm passes:\n${pauses}`);
    }
    return figures;
  } finally {
    await stopServer(server);
  }
}
