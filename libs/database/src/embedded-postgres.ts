import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, join, parse } from 'node:path';
import pg from 'pg';
import { EmbeddedPostgresError } from './embedded-postgres-error.js';
import { postgresAccount } from './postgres-account.js';
import { type PostgresBinaries, postgresBinaries, startServer } from './postgres-server.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'gatehouse';
const USER = 'gatehouse';
/** Clusters made before the password was generated per data directory used this one. */
const LEGACY_PASSWORD = 'gatehouse';

/**
 * A real PostgreSQL server under `dataDir/postgres`, for `npm start` on a machine without one.
 * Its binaries come inside an npm package; nothing is downloaded at run time. Started again on the
 * same `dataDir` it keeps its data; `port` pins the port (a free one by default). Its password is
 * generated once into `dataDir/postgres.password` (mode 0600) and never written anywhere else.
 *
 * Run as root, PostgreSQL runs as the `postgres` account (created when missing), which must be
 * able to reach the binaries and `dataDir`: when it cannot (a checkout under a home of mode 0700),
 * this stops with a sentence saying what to do.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (msg: string) => void,
  options: { port?: number } = {},
): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'postgres');
  const initialised = existsSync(join(databaseDir, 'PG_VERSION'));
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let binaries = await postgresBinaries();
  const account = asRoot ? await postgresAccount() : undefined;
  if (account) {
    // Execute-only for others: the server's account can reach its folder, not list or read DATA_DIR.
    chmodSync(dataDir, statSync(dataDir).mode | 0o011);
    if (!firstBlocked(account, dataDir) && firstBlocked(account, dirname(binaries.initdb))) {
      binaries = reachableCopy(binaries, dataDir, log);
    }
    assertReachable(account, dataDir, dirname(binaries.initdb));
  }
  const password = initialised ? storedPassword(dataDir) : newPassword(dataDir);
  if (!initialised) {
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await initialise(binaries, databaseDir, password, account);
  }
  const port = options.port ?? (await freePort());
  const server = await startServer(binaries.postgres, databaseDir, port, account);
  const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  try {
    if (!initialised) await createDatabase(`${url}/postgres`);
  } catch (error) {
    await server.stop();
    throw error;
  }
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return { url: `${url}/${DATABASE}`, stop: () => server.stop() };
}

async function createDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}

function newPassword(dataDir: string): string {
  const password = randomBytes(24).toString('base64url');
  writeFileSync(join(dataDir, 'postgres.password'), `${password}\n`, { mode: 0o600 });
  return password;
}

function storedPassword(dataDir: string): string {
  const file = join(dataDir, 'postgres.password');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : LEGACY_PASSWORD;
}

/**
 * `initdb` with the password in a file only the server's account can read, inside DATA_DIR (never
 * in the shared temporary directory), removed whatever happens.
 */
async function initialise(
  binaries: PostgresBinaries,
  databaseDir: string,
  password: string,
  account?: { uid: number; gid: number },
) {
  mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
  const secrets = mkdtempSync(join(dirname(databaseDir), '.initdb-'));
  const pwfile = join(secrets, 'password');
  try {
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (account) {
      for (const path of [databaseDir, secrets, pwfile]) chownSync(path, account.uid, account.gid);
    }
    const args = [
      `--pgdata=${databaseDir}`,
      '--auth=scram-sha-256',
      `--username=${USER}`,
      `--pwfile=${pwfile}`,
      '--encoding=UTF8',
    ];
    await run(binaries.initdb, args, account);
  } finally {
    rmSync(secrets, { recursive: true, force: true });
  }
}

/** Runs a binary (as the server's account when root) and fails with its error output. */
function run(binary: string, args: string[], account?: { uid: number; gid: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...account, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) => reject(new EmbeddedPostgresError(`${binary} could not be run: ${error.message}`)));
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new EmbeddedPostgresError(`initdb failed (exit code ${code}): ${stderr.trim().split('\n').pop()}`));
    });
  });
}

/**
 * The binaries where the server's account can run them: a checkout under a home it cannot enter
 * (`/root`, mode 0700) holds them out of its reach, so a copy of the package's `bin`, `lib` and
 * `share` goes under DATA_DIR once (about 60 MB, reused by later starts).
 */
function reachableCopy(binaries: PostgresBinaries, dataDir: string, log: (msg: string) => void): PostgresBinaries {
  const native = dirname(dirname(binaries.initdb));
  const copy = join(dataDir, 'postgresql-binaries');
  const copied = join(copy, 'bin', basename(binaries.postgres));
  const same = (a: string, b: string) => statSync(a).size === statSync(b).size && statSync(a).mtimeMs === statSync(b).mtimeMs;
  if (!existsSync(copied) || !same(binaries.postgres, copied)) {
    log(`copying the embedded PostgreSQL's binaries to ${copy}, where its account can run them`);
    rmSync(copy, { recursive: true, force: true });
    cpSync(native, copy, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  }
  return { initdb: join(copy, 'bin', basename(binaries.initdb)), postgres: join(copy, 'bin', basename(binaries.postgres)) };
}

/**
 * Run as root, the server runs as `account`: every folder on the way to its data and binaries
 * must let that account pass. Stops with what to do when one does not.
 */
function assertReachable(account: { uid: number; gid: number }, dataDir: string, binaryDir: string): void {
  const blockedData = firstBlocked(account, dataDir);
  const blockedBinaries = firstBlocked(account, binaryDir);
  const blocked = blockedData ?? blockedBinaries;
  if (!blocked) return;
  const mode = (statSync(blocked).mode & 0o777).toString(8).padStart(4, '0');
  const instead = blockedData
    ? `set DATA_DIR to a directory outside ${blocked} (for example DATA_DIR=/var/lib/gatehouse)`
    : `move the checkout out of ${blocked}`;
  throw new EmbeddedPostgresError(
    `The embedded PostgreSQL cannot run as root here: PostgreSQL refuses to run as root, and the account it runs as ` +
      `("postgres") cannot enter ${blocked} (mode ${mode}); set DATABASE_URL to a PostgreSQL server, ${instead}, ` +
      'or run npm start as a user other than root.',
  );
}

/** The first folder from the root down to `path` that `account` may not pass through. */
function firstBlocked(account: { uid: number; gid: number }, path: string): string | undefined {
  const chain: string[] = [];
  for (let dir = path; ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dir === parse(dir).root) break;
  }
  for (const dir of chain) {
    if (!existsSync(dir)) return undefined;
    const { mode, uid, gid } = statSync(dir);
    const passes = uid === account.uid ? mode & 0o100 : gid === account.gid ? mode & 0o010 : mode & 0o001;
    if (!passes) return dir;
  }
  return undefined;
}

/**
 * A TCP port on 127.0.0.1 that is free right now, taken below the kernel's ephemeral range where it
 * can: a port from that range (what `listen(0)` hands out) can become the source port of any outgoing
 * connection between this probe and the caller's own `listen`, which then fails with EADDRINUSE.
 * `range` narrows the draw (from `low`, below `high`) for callers that share the machine's ports
 * with others probing at the same time; it is cut off at the ephemeral range too.
 */
export async function freePort(range: { low: number; high: number } = { low: 10_000, high: 65_536 }): Promise<number> {
  const high = Math.min(range.high, ephemeralLow());
  for (let attempt = 0; high - range.low > 1_000 && attempt < 20; attempt++) {
    const port = range.low + Math.floor(Math.random() * (high - range.low));
    if (await listensOn(port)) return port;
  }
  return listensOn(0);
}

/** The low end of the kernel's ephemeral port range (32768 where it cannot be read). */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

/** Listens on `port` (0: any) and closes again: the port it got, or 0 when that one was taken. */
function listensOn(port: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolvePort(0) : reject(error),
    );
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
