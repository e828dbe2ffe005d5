// What a run of `npm run bench` does in each mode, how long each run is, and how long its phases
// are expected to take (`--plan` prints them without running anything).

/**
 * - `quick` (`--quick`, ≈ 1.5 min): Gatehouse against the ceiling, ES256, alternating rounds on
 *   fresh servers; for a change to the token path.
 * - `default` (≈ 10 min): the comparison with shorter runs and, without the CPU profile, a reduced
 *   scale pass (10,000 clients, a cold start, the sweep of a million invitations under traffic).
 * - `full` (`--full`, ≈ 25 min): the run of record — the comparison as it always ran and every
 *   scale scenario at full size; it writes `bench/results/latest.json` and the plot.
 * - `smoke` (`--smoke`): the full pipeline at a thousandth of the data, 1-second runs; the test.
 */
export type Mode = 'quick' | 'default' | 'full' | 'smoke';

const argv = process.argv;
export const mode: Mode = argv.includes('--smoke')
  ? 'smoke'
  : argv.includes('--quick')
    ? 'quick'
    : argv.includes('--full')
      ? 'full'
      : 'default';
export const smoke = mode === 'smoke';
/** The experiments (`experiment.js`) measure with the run of record's settings unless told `--smoke`. */
const experiment = /experiment\.js$/.test(argv[1] ?? '');

export interface RunSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Each server is measured this many times per algorithm, in alternation; figures are medians. */
  rounds: number;
}

const SETTINGS: Record<Mode, RunSettings> = {
  smoke: { connections: 10, warmupSeconds: 1, durationSeconds: 1, rounds: 1 },
  quick: { connections: 20, warmupSeconds: 2, durationSeconds: 8, rounds: 3 },
  default: { connections: 20, warmupSeconds: 2, durationSeconds: 5, rounds: 3 },
  full: { connections: 20, warmupSeconds: 3, durationSeconds: 10, rounds: 3 },
};
export const settings: RunSettings = SETTINGS[experiment && mode === 'default' ? 'full' : mode];

/**
 * The load generator's sending thread at real-time priority (paced-load-child.ts says why and at
 * what cost). The run of record is made with it, so `--full` implies it (`--no-realtime-generator`
 * leaves it out); elsewhere `--realtime-generator` asks for it.
 */
export const realtimeGenerator =
  !argv.includes('--no-realtime-generator') && (argv.includes('--realtime-generator') || mode === 'full');

/** Admin writes of §13's events-out phase: the issue's 10,000 in the run of record, fewer by default. */
export const eventsOutWrites: Record<Mode, number> = { full: 10_000, default: 1_500, quick: 0, smoke: 200 };
/** The comparison's invitation sweep and mail outbox: invitations (of which overdue) and emails. */
export const backgroundSizes: Record<Mode, { rows: number; overdue: number; emails: number }> = {
  full: { rows: 1_000_000, overdue: 100_000, emails: 5_000 },
  default: { rows: 500_000, overdue: 50_000, emails: 5_000 },
  quick: { rows: 0, overdue: 0, emails: 0 },
  smoke: { rows: 1_000, overdue: 100, emails: 50 },
};

/** Where a run writes its figures: the run of record `latest.json`, every other mode a file of its own. */
export const resultsFile: Record<Mode, string> = {
  full: 'latest.json',
  default: 'default.json',
  quick: 'quick.json',
  smoke: 'smoke.json',
};

export interface ScaleSizes {
  /** The clients measured round robin against one, each round on a fresh server. */
  clients: number;
  /** Clients past the cache's bound for `rssRunSeconds` (0: not run). */
  big: number;
  /** The admin lists' data (`users` 0: not run). */
  users: number;
  userSteps: number[];
  audit: number;
  awaiting: number;
  invitations: number;
  overdue: number;
  curve: number[];
  rssRunSeconds: number;
  rssSampleMs: number;
  growthFromS: number;
  coldSeconds: number;
}

const SIZES: Record<Exclude<Mode, 'quick'>, ScaleSizes> = {
  smoke: {
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
  },
  default: {
    clients: 10_000,
    big: 0,
    users: 0,
    userSteps: [],
    audit: 0,
    awaiting: 0,
    invitations: 1_000_000,
    overdue: 100_000,
    curve: [1, 1_000, 10_000],
    rssRunSeconds: 0,
    rssSampleMs: 0,
    growthFromS: 0,
    coldSeconds: 5,
  },
  full: {
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
  },
};
/** Sizes of the scale pass (quick runs none). */
export const scaleSizes: ScaleSizes = SIZES[mode === 'quick' ? 'default' : mode];

/** The comparison's CPU profile of Gatehouse: in the run of record and the smoke run, not in the default. */
export const profiles = mode === 'full' || mode === 'smoke';
