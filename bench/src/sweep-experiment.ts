import { timeSweep } from './background.js';
import { onServer, postgresSettings } from './harness.js';
import type { Provisioned } from './provision.js';
import { generateAuditEvents, generateInvitations, generateUsers, withClient } from './scale-data.js';

const option = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);

/**
 * The invitation sweep alone at scale, no token traffic (`node dist/bench/src/experiment.js ES256 1
 * --sweep <invitations> <overdue> [--audit=<events>] [--batch=<rows>] [--lanes=<n>] [--repeat=<n>]`):
 * 100,000 users, `--audit` audit events (default none), the invitations as the scale run generates
 * them, then the real sweep, timed and checked, `--repeat` times on freshly generated invitations.
 * Prints Postgres' block reads and hits, checkpoints and WAL written over each sweep.
 */
export async function sweepExperiment(p: Provisioned): Promise<number> {
  const at = process.argv.indexOf('--sweep');
  const invitations = Number(process.argv[at + 1] ?? 1_000_000);
  const overdue = Number(process.argv[at + 2] ?? 100_000);
  const audit = option('audit', 0);
  const t0 = Date.now();
  await generateUsers(p.databaseUrl, p.tenantId, 1, 100_000);
  if (audit > 0) await generateAuditEvents(p.databaseUrl, p.tenantId, audit, ['00000000-0000-4000-8000-000000000001']);
  console.log(`users${audit ? ' and audit events' : ''} generated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(await postgresSettings());
  for (let i = 0; i < option('repeat', 1); i++) {
    const t1 = Date.now();
    await generateInvitations(p.databaseUrl, p.tenantId, invitations, overdue);
    console.log(`${invitations} invitations generated in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    await onServer('CHECKPOINT');
    const before = await stats(p.databaseUrl);
    const figures = await timeSweep(p.config, invitations, overdue, { batchSize: option('batch', 5000), lanes: option('lanes', 2) });
    const after = await stats(p.databaseUrl);
    const delta = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k]!]));
    console.log(`sweep: ${figures.overdue} of ${figures.rows} in ${figures.seconds} s`, delta);
  }
  return 0;
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
