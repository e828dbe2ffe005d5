import { existsSync, statSync } from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';

/** Where a root start keeps the embedded PostgreSQL when the checkout's `./var` is out of its account's reach. */
export const ROOT_DATA_DIR = '/var/lib/gatehouse';

export interface DefaultDataDir {
  dataDir: string;
  /** Set when the place used is not `./var`: the folder that kept the embedded PostgreSQL's account out of it. */
  outOfReach?: string;
}

/**
 * `DATA_DIR` when it is unset: `./var`, except for a root start on the embedded PostgreSQL where
 * some folder on the way to `./var` lets no other account through (a checkout under `/root`, mode
 * 0700). PostgreSQL refuses to run as root and runs as its own account, which could not reach its
 * data there; the data goes to `rootDataDir` (`/var/lib/gatehouse`) instead. A `./var` that already
 * holds an embedded cluster stays where it is.
 */
export function defaultDataDir(options: { embedded: boolean; uid?: number; rootDataDir?: string }): DefaultDataDir {
  const local = resolve('./var');
  if (!options.embedded || options.uid !== 0 || existsSync(join(local, 'postgres', 'PG_VERSION'))) return { dataDir: local };
  const blocked = closedToOthers(local);
  return blocked ? { dataDir: resolve(options.rootDataDir ?? ROOT_DATA_DIR), outOfReach: blocked } : { dataDir: local };
}

/** The first existing folder from the root down to `path` that lets no other account pass. */
function closedToOthers(path: string): string | undefined {
  const chain: string[] = [];
  for (let dir = path; ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dir === parse(dir).root) break;
  }
  return chain.find((dir) => existsSync(dir) && !(statSync(dir).mode & 0o001));
}
