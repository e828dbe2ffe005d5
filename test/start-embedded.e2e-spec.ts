import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/**
 * `npm start` on a machine without Postgres: the embedded database starts, the schema is migrated,
 * tenant `default` is bootstrapped, and its credentials get a token that the admin API accepts.
 */
describe('npm start without DATABASE_URL (embedded Postgres)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'));
  let child: ChildProcess;
  let output = '';
  let port: number;
  let adminPort: number;

  beforeAll(async () => {
    expect(existsSync(MAIN), 'run `npm run build` first (npm test does)').toBe(true);
    port = await freePort();
    adminPort = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
    };
    child = spawn(process.execPath, [MAIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => existsSync(join(dataDir, 'bootstrap.json')) && /admin listening/.test(output), 90_000, () => output);
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);

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
});

async function waitFor(condition: () => boolean, timeoutMs: number, context: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; process output:\n${context()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
