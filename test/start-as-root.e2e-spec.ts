import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratch } from './support/compose-topology.js';
import { freePort } from './support/http-apps.js';

const MAIN = resolve(import.meta.dirname, '../dist/apps/cli/src/main.js');

/**
 * `npm start` as root in a checkout under a folder of mode 0700 (a container's `/root`), with
 * DATA_DIR unset: PostgreSQL's own account could not enter `./var`, so the data goes to the root
 * data directory (`/var/lib/gatehouse`; ROOT_DATA_DIR moves it here, out of the machine's), the
 * ready box says where and why, and the credentials work.
 */
describe.skipIf(process.getuid?.() !== 0)('npm start as root under a home of mode 0700, DATA_DIR unset', () => {
  const home = scratch('root-home');
  const checkout = join(home, 'gatehouse');
  const rootDataDir = join(tmpdir(), `gatehouse-root-data-${process.pid}`);
  let child: ChildProcess;
  let stdout = '';
  let output = '';

  beforeAll(async () => {
    chmodSync(home, 0o700);
    mkdirSync(checkout);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      TMPDIR: tmpdir(),
      ROOT_DATA_DIR: rootDataDir,
      PORT: String(port),
      ADMIN_PORT: String(await freePort()),
      MANAGEMENT_PORT: String(await freePort()),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TOKEN_WARMUP_REQUESTS: '200', // runs, shortened (its subject is token-warm-up.e2e-spec.ts)
    };
    child = spawn(process.execPath, [MAIN, 'start'], { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => ((output += chunk.toString()), (stdout += chunk.toString())));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!/\+-+\+\n$/.test(stdout) && child.exitCode === null) {
      if (Date.now() > deadline) throw new Error(`no ready box; output:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(rootDataDir, { recursive: true, force: true });
  }, 30_000);

  it('starts with its data in the root data directory and says where, and why not ./var', () => {
    expect(stdout, output).toContain('Gatehouse is ready.');
    expect(stdout).toMatch(new RegExp(`data \\(DATA_DIR\\): +${rootDataDir}`));
    expect(stdout).toContain(`cannot enter ${home}`);
    expect(existsSync(join(rootDataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(checkout, 'var'))).toBe(false);
  });

  it('hands out working credentials from there', async () => {
    const bootstrap = JSON.parse(readFileSync(join(rootDataDir, 'bootstrap.json'), 'utf8')) as Record<string, string>;
    const response = await fetch(bootstrap.tokenEndpoint!, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: bootstrap.clientId!,
        client_secret: bootstrap.clientSecret!,
        scope: bootstrap.scope!,
      }),
    });
    expect(response.status).toBe(200);
  });
});
