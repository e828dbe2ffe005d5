import type { INestApplication } from '@nestjs/common';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@gatehouse/config';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { cli } from './support/operator-cli.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

/** A failed run of the command line: its exit code and what it said. */
async function refused(config: AppConfig, args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await cli(config, args);
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
  throw new Error(`${args.join(' ')} succeeded`);
}

/**
 * `bootstrap --algorithm ES256` starts a tenant with its algorithm, and `keys list|rollover` reach
 * the emergency rollover from the command line, with the bootstrap client's tokens as the proof.
 */
describe('signing keys from the command line', () => {
  let database: TestDatabase;
  let config: AppConfig;
  let identity: INestApplication;
  let publicUrl: string;
  let bootstrap: { tenantId: string; clientId: string; clientSecret: string; tokenEndpoint: string; scope: string };

  const jwks = async () => (await (await fetch(`${publicUrl}/${bootstrap.tenantId}/discovery/v2.0/keys`)).json()) as { keys: Array<Record<string, string>> };
  const verifies = async (jwt: string) =>
    jwtVerify(jwt, createLocalJWKSet(await jwks())).then(
      () => true,
      () => false,
    );

  async function token(): Promise<{ jwt: string; alg: string; kid: string }> {
    const response = await fetch(bootstrap.tokenEndpoint, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: bootstrap.clientId,
        client_secret: bootstrap.clientSecret,
        scope: bootstrap.scope,
      }),
    });
    const jwt = ((await response.json()) as { access_token: string }).access_token;
    const header = decodeProtectedHeader(jwt);
    return { jwt, alg: header.alg!, kid: header.kid! };
  }

  /** Waits (2 s at most) until the identity app signs with `kid`: it hears of key changes through NOTIFY. */
  async function signedBy(kid: string) {
    const deadline = Date.now() + 2000;
    for (;;) {
      const issued = await token();
      if (issued.kid === kid || Date.now() > deadline) return issued;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    config = testConfig(database.url, { publicUrl });
    identity = await createIdentityApp({ config, logDestination: new LogCapture() });
    await identity.listen(port, '127.0.0.1');
  }, 60_000);

  afterAll(async () => {
    await identity?.close();
    await database?.drop();
  });

  it('bootstrap --algorithm ES256: the new tenant signs with ES256 from its first token', async () => {
    bootstrap = JSON.parse((await cli(config, ['bootstrap', '--tenant', 'elliptic', '--algorithm', 'ES256', '--json'])).stdout);
    const first = await token();
    expect(first.alg).toBe('ES256');
    expect((await jwks()).keys.map((k) => [k.kty, k.alg])).toEqual([['EC', 'ES256']]);
    expect(await verifies(first.jwt)).toBe(true);
  });

  it('refuses an unknown algorithm (exit 2) and another algorithm for an existing tenant (exit 1), saying what to do', async () => {
    const unknown = await refused(config, ['bootstrap', '--tenant', 'other', '--algorithm', 'HS256']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--algorithm must be one of RS256, ES256');
    const differs = await refused(config, ['bootstrap', '--tenant', 'elliptic', '--algorithm', 'RS256']);
    expect(differs.code).toBe(1);
    expect(differs.stderr).toContain('Tenant elliptic exists and signs with ES256');
    expect(differs.stderr).toContain('PATCH /admin/v1/tenant');
  });

  it('keys rollover: a new key signs at once; tokens of the previous one still verify', async () => {
    const before = await token();
    const { stdout } = await cli(config, ['keys', 'rollover', '--tenant', 'elliptic']);
    const kid = /^Key (\S+) \(ES256\) signs the tokens of tenant elliptic from now on\.$/m.exec(stdout)?.[1];
    expect(kid).toBeTruthy();
    expect(stdout).toContain(`The previous key ${before.kid} stays published until`);
    expect(stdout).toContain('--revoke-previous');
    expect((await signedBy(kid!)).kid).toBe(kid);
    expect(await verifies(before.jwt)).toBe(true);
  });

  it('keys rollover --revoke-previous: tokens signed before stop verifying against the JWKS; keys list shows it', async () => {
    const before = await token();
    const result = JSON.parse((await cli(config, ['keys', 'rollover', '--tenant', 'elliptic', '--revoke-previous', '--json'])).stdout);
    expect(result).toMatchObject({ algorithm: 'ES256', revokedPrevious: true, previous: { kid: before.kid, status: 'revoked' } });
    const after = await signedBy(result.kid);
    expect(after.kid).toBe(result.kid);
    expect(await verifies(before.jwt)).toBe(false);
    expect(await verifies(after.jwt)).toBe(true);
    const listed = (await cli(config, ['keys', 'list', '--tenant', 'elliptic'])).stdout.trim().split('\n');
    expect(listed).toHaveLength(3);
    expect(listed[0]).toMatch(new RegExp(`^${result.kid}  ES256  active \\(published\\)  created `));
    expect(listed.find((line) => line.startsWith(before.kid))).toMatch(/ revoked  created .* until /);
    expect(listed.find((line) => !line.startsWith(before.kid) && !line.startsWith(result.kid))).toMatch(/ retired \(published\)/);
    expect((await refused(config, ['keys', 'list', '--tenant', 'nowhere'])).stderr).toContain('No tenant "nowhere".');
  });
});
