import { freePort as freePortIn } from '@gatehouse/database';

/**
 * Ports from 10,000 to 30,000, cut into one slice for each test worker that can run at the same
 * time. `TEST_PORT_RANGE=low-high` moves the run elsewhere, so two runs on one machine (two
 * checkouts) never draw from the same slices.
 */
const [RANGE_LOW, RANGE_HIGH] = (process.env.TEST_PORT_RANGE ?? '10000-30000').split('-').map(Number);
const SLICES = 8;
const SLICE = Math.floor((RANGE_HIGH - RANGE_LOW) / SLICES);
/** Ports this file was given: one drawn but not yet listened on is free to the probe again. */
const given = new Set<number>();

/**
 * A port that is free right now, so a test can tell an app its public URL before it listens. Each
 * test worker draws from its own slice: between this probe and the app's `listen` (a minute for an
 * app that first initialises its embedded database) a file running beside it cannot draw the same
 * port, and this file never gets the same one twice.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? 1) || 1;
  const low = RANGE_LOW + ((worker - 1) % SLICES) * SLICE;
  for (;;) {
    const port = await freePortIn({ low, high: low + SLICE });
    if (given.has(port)) continue;
    given.add(port);
    return port;
  }
}
