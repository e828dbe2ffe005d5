import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalProcess, scratch } from './support/compose-topology.js';
import { freePort } from './support/http-apps.js';

const MAIN = resolve(import.meta.dirname, '../dist/apps/cli/src/main.js');

interface Bootstrap {
  tenant: string;
  tenantId: string;
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string;
  scope: string;
}

/** Every file under `dir` that users other than its owner may read. */
function readableByOthers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => statSync(file).mode & 0o004);
}

/**
 * `npm start` on a machine without Postgres, as root with a home other users cannot read (as in a
 * container): the embedded database starts, the schema is migrated, tenant `default` is
 * bootstrapped, and its credentials get a token that the admin API accepts. No file that others
 * can read holds a password, and the credentials box is the last thing printed.
 */
describe('npm start without DATABASE_URL (embedded Postgres)', () => {
  const home = scratch('start-home');
  const dataDir = scratch('start');
  const childTmp = scratch('start-tmp');
  let child: ChildProcess;
  let output = '';
  let stdout = '';
  let port: number;
  let adminPort: number;
  let stdoutAtReady = '';

  beforeAll(async () => {
    expect(existsSync(MAIN), 'run `npm run build` first (npm test does)').toBe(true);
    port = await freePort();
    adminPort = await freePort();
    chmodSync(home, 0o700);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      TMPDIR: childTmp,
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      MANAGEMENT_PORT: String(await freePort()),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
      TOKEN_WARMUP_REQUESTS: '200', // runs, shortened (its subject is token-warm-up.e2e-spec.ts)
    };
    child = spawn(process.execPath, [MAIN, 'start'], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => ((output += chunk.toString()), (stdout += chunk.toString())));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => /Gatehouse is ready/.test(stdout) && /\+-+\+\n$/.test(stdout), 90_000, () => output);
    await new Promise((r) => setTimeout(r, 1_000)); // anything printed after the box would show now
    stdoutAtReady = stdout;
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGTERM');
  }, 30_000);

  it('prints the credentials box last, after a short start-up (no framework chatter, no data-source warning)', () => {
    expect(stdoutAtReady).toMatch(/client secret: {3}\S+ {3}\(shown once; store it now\)[^]*\+-+\+\n$/);
    const before = stdoutAtReady.slice(0, stdoutAtReady.indexOf('Gatehouse is ready'));
    expect(before.split('\n').filter((line) => line.startsWith('{')).length).toBeLessThanOrEqual(5);
    expect(output).not.toContain('already registered');
    expect(output).not.toContain('"context":"RouterExplorer"');
  });

  it('leaves no file readable by others that holds a password, and no password file in the temporary directory', () => {
    const password = readFileSync(join(dataDir, 'postgres.password'), 'utf8').trim();
    const bootstrap = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;
    expect(statSync(join(dataDir, 'postgres.password')).mode & 0o077).toBe(0);
    for (const file of [...readableByOthers(dataDir), ...readableByOthers(childTmp)]) {
      const content = readFileSync(file, 'utf8');
      expect(content, file).not.toContain(password);
      expect(content, file).not.toContain(bootstrap.clientSecret);
    }
    expect(readdirSync(childTmp).filter((name) => name.startsWith('pg-password'))).toEqual([]);
  });

  it.skipIf(process.getuid?.() !== 0)('as root with DATA_DIR inside a home others cannot enter: one sentence on what to do, exit 1', async () => {
    const locked = scratch('locked-home');
    chmodSync(locked, 0o700);
    const env = { PATH: process.env.PATH!, HOME: locked, DATA_DIR: join(locked, 'var'), PORT: String(await freePort()) };
    const refused = new LocalProcess('start', [process.execPath, MAIN, 'start'], env);
    expect(await refused.exited).toBe(1);
    expect(refused.output.trim().split('\n')).toHaveLength(1);
    expect(refused.output).toMatch(/^error: The embedded PostgreSQL cannot run as root here: .*set DATABASE_URL .*set DATA_DIR to a directory outside/);
  });

  it('writes the bootstrap credentials once, readable by the owner only', () => {
    const file = join(dataDir, 'bootstrap.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const bootstrap = JSON.parse(readFileSync(file, 'utf8')) as Bootstrap;
    expect(bootstrap).toMatchObject({
      tenant: 'default',
      tokenEndpoint: `http://127.0.0.1:${port}/${bootstrap.tenantId}/oauth2/v2.0/token`,
      scope: 'api://gatehouse-admin/.default',
    });
    expect(bootstrap.clientSecret.length).toBeGreaterThanOrEqual(43);
  });

  it('serves a token that the admin API accepts', async () => {
    const bootstrap = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;
    const tokenResponse = await fetch(bootstrap.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: bootstrap.clientId,
        client_secret: bootstrap.clientSecret,
        scope: bootstrap.scope,
      }),
    });
    expect(tokenResponse.status).toBe(200);
    const { access_token: accessToken } = (await tokenResponse.json()) as { access_token: string };
    const tenant = await fetch(`http://127.0.0.1:${adminPort}/admin/v1/tenant`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(tenant.status).toBe(200);
    expect(await tenant.json()).toMatchObject({ signingAlgorithm: 'RS256' });
  });

  it('names the app that wrote each log line, although all three share one process', async () => {
    await fetch(`http://127.0.0.1:${port}/login`);
    await waitFor(() => /"app":"identity"/.test(output) && /"app":"admin"/.test(output), 5_000, () => output);
    expect(output).not.toContain('"app":"cli"');
  });

  it('prints the secret once and never into the logs beyond that line', () => {
    const bootstrap = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;
    expect(output.split(bootstrap.clientSecret).length - 1).toBe(1);
  });

  it("prints the first Administrator's console activation link once; it opens the set-password page", async () => {
    const links = [...output.matchAll(/http:\/\/localhost:(\d+)(\/console\/activate\/[A-Za-z0-9_-]+)/g)];
    expect(links).toHaveLength(1);
    expect(links[0]![1]).toBe(String(adminPort)); // ADMIN_PUBLIC_URL defaults to http://localhost:{ADMIN_PORT}
    const page = await fetch(`http://127.0.0.1:${adminPort}${links[0]![2]}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<strong>admin</strong>');
  });

  it('stops on SIGTERM with exit code 0, the embedded PostgreSQL with it', async () => {
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});

async function waitFor(condition: () => boolean, timeoutMs: number, context: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; process output:\n${context()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
