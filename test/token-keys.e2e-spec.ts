import type { INestApplication } from '@nestjs/common';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantError, TenantErrorCode, TenantService } from '@gatehouse/tenants';
import { AccessTokenError, SigningKeyService } from '@gatehouse/tokens';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

describe('signing keys and tenant settings', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let fx: TokenFixtures;
  let baseUrl: string;
  let keys: SigningKeyService;
  let tenants: TenantService;
  let dataSource: DataSource;
  let tenant: { id: string; slug: string };
  let orders: Awaited<ReturnType<TokenFixtures['api']>>;
  let client: Awaited<ReturnType<TokenFixtures['readyClient']>>;

  async function issue(): Promise<string> {
    const response = await fetch(`${baseUrl}/${tenant.slug}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.secret,
        scope: 'api://orders/.default',
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  }
  async function jwks(): Promise<{ keys: Array<Record<string, unknown>> }> {
    const response = await fetch(`${baseUrl}/${tenant.id}/discovery/v2.0/keys`);
    expect(response.status).toBe(200);
    return (await response.json()) as { keys: Array<Record<string, unknown>> };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const config = testConfig(database.url, { publicUrl: baseUrl });
    app = await createIdentityApp({ config, logDestination: new LogCapture() });
    await app.listen(port, '127.0.0.1');
    fx = new TokenFixtures(app, config.secretPepper);
    keys = app.get(SigningKeyService);
    tenants = app.get(TenantService);
    dataSource = app.get(DataSource);
    tenant = await dataSource.transaction((em) => tenants.create(em, { slug: 'keys-tenant', displayName: 'Keys' }));
    orders = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('validates tenant slugs and settings', async () => {
    const create = (slug: string) => dataSource.transaction((em) => tenants.create(em, { slug, displayName: 'x' }));
    await expect(create('A')).rejects.toMatchObject({ code: TenantErrorCode.InvalidSlug });
    await expect(create('keys-tenant')).rejects.toMatchObject({ code: TenantErrorCode.SlugTaken });
    const update = (settings: Parameters<TenantService['updateSettings']>[2]) =>
      dataSource.transaction((em) => tenants.updateSettings(em, tenant.id, settings));
    await expect(update({ accessTokenLifetimeSeconds: 200 })).rejects.toBeInstanceOf(TenantError);
    await expect(
      update({ accessTokenLifetimeSeconds: 3000, extAccessTokenLifetimeSeconds: 2000 }),
    ).rejects.toMatchObject({
      code: TenantErrorCode.InvalidLifetime,
    });
    await expect(
      update({ accessTokenLifetimeSeconds: 600, extAccessTokenLifetimeSeconds: 900 }),
    ).resolves.toMatchObject({
      accessTokenLifetimeSeconds: 600,
    });
    expect(await tenants.findByIdOrSlug('keys-tenant')).toMatchObject({ id: tenant.id });
    expect(await tenants.findByIdOrSlug(tenant.id)).toMatchObject({ slug: 'keys-tenant' });
  });

  it('new lifetimes apply to the next token (tenant change announced)', async () => {
    await fx.settle();
    const token = await issue();
    const { payload } = await jwtVerify(token, createLocalJWKSet(await jwks()));
    expect(payload.exp! - payload.iat!).toBe(600);
  });

  it('rollover: a token issued before still verifies; kids are distinct; public members only', async () => {
    const before = await issue();
    await dataSource.transaction((em) => keys.rollover(em, tenant.id, 'RS256'));
    await fx.settle();
    const after = await issue();
    expect(decodeProtectedHeader(after).kid).not.toBe(decodeProtectedHeader(before).kid);
    const set = await jwks();
    const kids = set.keys.map((k) => k.kid);
    expect(new Set(kids).size).toBe(kids.length);
    for (const key of set.keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use', 'x5c', 'x5t']);
    }
    const verifier = createLocalJWKSet(set);
    await expect(jwtVerify(before, verifier)).resolves.toBeTruthy();
    await expect(jwtVerify(after, verifier)).resolves.toBeTruthy();
    await expect(keys.verifyAccessToken(tenant.id, before, { audience: orders.appId })).resolves.toMatchObject({
      sub: client.id,
    });
  });

  it('RS256 → ES256: the ES256 key is published at once and signs a day later; the old tokens still verify', async () => {
    const before = await issue();
    await dataSource.transaction((em) => tenants.updateSettings(em, tenant.id, { signingAlgorithm: 'ES256' }));
    await fx.settle();
    expect(decodeProtectedHeader(await issue()).alg).toBe('RS256');
    const published = (await jwks()).keys.find((k) => k.alg === 'ES256')!;
    expect(published).toBeDefined();
    await expect(keys.rotateDueKeys()).resolves.toBe(0); // published less than a day ago: not yet
    await dataSource.query(`UPDATE signing_keys SET created_at = now() - interval '25 hours' WHERE status = 'next'`);
    await expect(keys.rotateDueKeys()).resolves.toBe(1);
    await fx.settle();
    const after = await issue();
    expect(decodeProtectedHeader(after).alg).toBe('ES256');
    expect(decodeProtectedHeader(after).kid).toBe(published.kid);
    const set = await jwks();
    const ec = set.keys.find((k) => k.kid === decodeProtectedHeader(after).kid)!;
    expect(Object.keys(ec).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'x5c', 'x5t', 'y']);
    const verifier = createLocalJWKSet(set);
    await expect(jwtVerify(before, verifier)).resolves.toBeTruthy();
    await expect(jwtVerify(after, verifier)).resolves.toBeTruthy();
    await expect(keys.verifyAccessToken(tenant.id, after, { audience: orders.appId })).resolves.toMatchObject({
      tid: tenant.id,
    });
    await expect(keys.verifyAccessToken(tenant.id, before, { audience: orders.appId })).resolves.toMatchObject({
      tid: tenant.id,
    });
  });

  it("an algorithm changed behind the service's back (SQL + announcement) still publishes, then rolls, a key of that algorithm", async () => {
    const current = decodeProtectedHeader(await issue()).alg;
    const other = current === 'ES256' ? 'RS256' : 'ES256';
    await fx.change(`UPDATE tenants SET signing_algorithm = $2 WHERE id = $1`, [tenant.id, other], {
      kind: 'tenant',
      tenantId: tenant.id,
      id: '*',
    });
    await fx.settle();
    expect(decodeProtectedHeader(await issue()).alg).toBe(current);
    expect((await jwks()).keys.some((k) => k.alg === other)).toBe(true);
    await dataSource.query(`UPDATE signing_keys SET created_at = now() - interval '25 hours' WHERE status = 'next'`);
    await keys.rotateDueKeys();
    await fx.settle();
    const token = await issue();
    expect(decodeProtectedHeader(token).alg).toBe(other);
    await expect(jwtVerify(token, createLocalJWKSet(await jwks()))).resolves.toBeTruthy();
  });

  it('verifyAccessToken refuses another audience, another tenant, a tampered token', async () => {
    const token = await issue();
    await expect(keys.verifyAccessToken(tenant.id, token, { audience: 'other' })).rejects.toBeInstanceOf(
      AccessTokenError,
    );
    const other = await fx.tenant();
    await expect(keys.verifyAccessToken(other.id, token, { audience: orders.appId })).rejects.toBeInstanceOf(
      AccessTokenError,
    );
    const [h, p, s] = token.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), roles: ['x'] })).toString('base64url')}.${s}`;
    await expect(keys.verifyAccessToken(tenant.id, tampered, { audience: orders.appId })).rejects.toBeInstanceOf(
      AccessTokenError,
    );
  });

  it('rotateDueKeys pre-publishes the next key, then rolls to it; a key another worker holds is skipped', async () => {
    const DAY = 24 * 3600 * 1000;
    const statusOf = async (status: string): Promise<string[]> =>
      (
        await dataSource.query(`SELECT kid FROM signing_keys WHERE tenant_id = $1 AND status = $2`, [tenant.id, status])
      ).map((row: { kid: string }) => row.kid);
    const before = await issue();
    const kidBefore = decodeProtectedHeader(before).kid!;
    await expect(keys.rotateDueKeys(DAY)).resolves.toBe(0);
    expect(await statusOf('next')).toEqual([]);

    // Due within the pre-publication lead: a next key is published; the active one still signs.
    await expect(keys.rotateDueKeys(DAY, DAY)).resolves.toBe(0);
    await fx.settle();
    const [nextKid] = await statusOf('next');
    expect(nextKid).toEqual(expect.any(String));
    expect((await jwks()).keys.map((k) => k.kid)).toEqual(expect.arrayContaining([kidBefore, nextKid]));
    expect(decodeProtectedHeader(await issue()).kid).toBe(kidBefore);

    // Another worker holds this tenant's key row: the sweep skips it (SKIP LOCKED), no waiting.
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query(`SELECT id FROM signing_keys WHERE tenant_id = $1 AND status = 'active' FOR UPDATE`, [
      tenant.id,
    ]);
    await keys.rotateDueKeys(0);
    expect(await statusOf('active')).toEqual([kidBefore]);
    await runner.rollbackTransaction();
    await runner.release();

    // Published less than a day ago, the next key does not sign yet: verifiers may hold a JWKS without it.
    await expect(keys.rotateDueKeys(0)).resolves.toBe(0);
    await dataSource.query(`UPDATE signing_keys SET created_at = now() - interval '25 hours' WHERE kid = $1`, [nextKid]);
    await expect(keys.rotateDueKeys(0)).resolves.toBeGreaterThanOrEqual(1);
    await fx.settle();
    expect(await statusOf('active')).toEqual([nextKid]);
    expect(decodeProtectedHeader(await issue()).kid).toBe(nextKid);
    const [retired] = await dataSource.query(
      `SELECT publish_until FROM signing_keys WHERE kid = $1 AND status = 'retired'`,
      [kidBefore],
    );
    expect(retired.publish_until.getTime()).toBeGreaterThan(Date.now() + 86_400_000);
    await expect(jwtVerify(before, createLocalJWKSet(await jwks()))).resolves.toBeTruthy();
  });

  it('private keys are stored encrypted, never as PEM or JWK', async () => {
    const rows: Array<{ private_key_encrypted: Buffer; public_jwk: Record<string, unknown> }> = await dataSource.query(
      `SELECT private_key_encrypted, public_jwk FROM signing_keys`,
    );
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(row.private_key_encrypted.toString('latin1')).not.toContain('PRIVATE KEY');
      expect(row.public_jwk).not.toHaveProperty('d');
    }
  });
});
