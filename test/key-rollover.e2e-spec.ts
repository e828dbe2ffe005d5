import type { INestApplication } from '@nestjs/common';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';
import { freePort } from './support/http-apps.js';
import { TokenFixtures } from './support/token-fixtures.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The emergency rollover for the day a key leaks, through the admin API (`Tenant.Manage`), seen
 * from two identity replicas: a new key signs at once; without revoking, tokens of the previous
 * key keep verifying against the JWKS; with `revokePrevious` the previous key leaves the JWKS of
 * every replica and its tokens stop verifying. Audited; never key material in an answer.
 */
describe('emergency signing key rollover (REST)', () => {
  const apps = new AccessApps();
  let replica: INestApplication;
  let replicaUrl: string;
  let administrator: OperatorFixture;
  let contact: OperatorFixture;
  let client: { clientId: string; secret: string };

  const replicas = () => [apps.publicUrl, replicaUrl];
  const tenantPath = () => `/${apps.tenant.tenantId}`;

  async function jwks(base: string) {
    return (await (await fetch(`${base}${tenantPath()}/discovery/v2.0/keys`)).json()) as { keys: Json[] };
  }

  /** A token from the token endpoint of `base`, with the kid that signed it. */
  async function token(base: string) {
    const response = await fetch(`${base}${tenantPath()}/oauth2/v2.0/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.secret,
        scope: 'api://rollover/.default',
      }),
    });
    const body = (await response.json()) as { access_token: string };
    expect(response.status).toBe(200);
    return { jwt: body.access_token, kid: decodeProtectedHeader(body.access_token).kid as string };
  }

  /** Whether the token verifies against `base`'s JWKS as a resource server that just fetched it would check it. */
  async function verifies(base: string, jwt: string): Promise<boolean> {
    try {
      await jwtVerify(jwt, createLocalJWKSet(await jwks(base)));
      return true;
    } catch {
      return false;
    }
  }

  /** Waits (2 s at most) until `check` holds on every replica: they hear of key changes through NOTIFY. */
  async function onEveryReplica(check: (base: string) => Promise<boolean>) {
    const deadline = Date.now() + 2000;
    for (;;) {
      const results = await Promise.all(replicas().map(check));
      if (results.every(Boolean) || Date.now() > deadline) return results;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeAll(async () => {
    await apps.start();
    const port = await freePort();
    replica = await createIdentityApp({ config: apps.config, logDestination: apps.logs });
    await replica.listen(port, '127.0.0.1');
    replicaUrl = `http://127.0.0.1:${port}`;
    administrator = await apps.fixtures.operator(apps.tenant, ['Administrator']);
    contact = await apps.fixtures.operator(apps.tenant, ['ContactPerson']);
    const fx = new TokenFixtures(apps.identity, apps.config.secretPepper);
    const api = await fx.api(apps.tenant.tenantId, { identifier: 'api://rollover', scopes: ['Data.Read'] });
    const made = await fx.client(apps.tenant.tenantId);
    await fx.grant(apps.tenant.tenantId, made.id, [api.scopeIds['Data.Read']!]);
    client = { clientId: made.clientId, secret: (await fx.secret(apps.tenant.tenantId, made.id)).value };
  }, 60_000);

  afterAll(async () => {
    await replica?.close();
    await apps.stop();
  });

  it('lists the keys with kid, algorithm, state and dates — never key material — for Administrators only', async () => {
    await token(apps.publicUrl); // the first token request made the tenant's key
    const list = await apps.call('get', '/tenant/signing-keys', administrator.token);
    expect(list.status).toBe(200);
    const active = list.body.keys.find((k: Json) => k.status === 'active');
    expect(list.body.active).toEqual({ RS256: active.kid });
    expect(Object.keys(active).sort()).toEqual(['activatedAt', 'algorithm', 'createdAt', 'kid', 'published', 'publishedUntil', 'retiredAt', 'status']);
    expect(JSON.stringify(list.body)).not.toMatch(/"(d|n|e|x|y|x5c|privateKey\w*)"/);
    expect((await apps.call('get', '/tenant/signing-keys', contact.token)).status).toBe(403);
    expect((await apps.call('post', '/tenant/signing-keys/rollover', contact.token, {})).status).toBe(403);
    const bad = await apps.call('post', '/tenant/signing-keys/rollover', administrator.token, { revokePrevious: 'true', kid: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: Json) => e.field).sort()).toEqual(['kid', 'revokePrevious']);
  });

  it('without revoking: the new key signs at once on every replica; tokens of both keys verify', async () => {
    const before = await Promise.all(replicas().map(token));
    const rolled = await apps.call('post', '/tenant/signing-keys/rollover', administrator.token, {});
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ algorithm: 'RS256', revokedPrevious: false, previous: { kid: before[0]!.kid, status: 'retired', published: true } });
    expect(rolled.body.kid).not.toBe(before[0]!.kid);
    expect(await onEveryReplica(async (base) => (await token(base)).kid === rolled.body.kid)).toEqual([true, true]);
    for (const base of replicas()) {
      expect((await jwks(base)).keys.map((k) => k.kid)).toEqual(expect.arrayContaining([rolled.body.kid, before[0]!.kid]));
      expect(await verifies(base, before[1]!.jwt)).toBe(true);
      expect(await verifies(base, (await token(base)).jwt)).toBe(true);
    }
  });

  it('with revokePrevious: the previous key leaves the JWKS of every replica and its tokens stop verifying', async () => {
    const signedBefore = await token(replicaUrl);
    administrator.token = await apps.fixtures.token(apps.tenant, administrator, {}); // signed by the key about to be revoked
    expect(decodeProtectedHeader(administrator.token).kid).toBe(signedBefore.kid);
    const rolled = await apps.call('post', '/tenant/signing-keys/rollover', administrator.token, { revokePrevious: true });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ revokedPrevious: true, previous: { kid: signedBefore.kid, status: 'revoked', published: false } });
    const gone = async (base: string) => !(await jwks(base)).keys.some((k) => k.kid === signedBefore.kid);
    expect(await onEveryReplica(gone)).toEqual([true, true]);
    for (const base of replicas()) {
      expect(await verifies(base, signedBefore.jwt)).toBe(false);
      const fresh = await token(base);
      expect([fresh.kid, await verifies(base, fresh.jwt)]).toEqual([rolled.body.kid, true]);
    }
    // The admin API verifies its tokens with the same keys: one the revoked key signed is refused.
    expect((await apps.call('get', '/tenant/signing-keys', administrator.token)).status).toBe(401);
    administrator.token = await apps.fixtures.token(apps.tenant, administrator, {});
    const list = (await apps.call('get', '/tenant/signing-keys', administrator.token)).body;
    expect(list.keys.find((k: Json) => k.kid === signedBefore.kid)).toMatchObject({ status: 'revoked', published: false });
  });

  it('audits each rollover with the kids and what became of the previous key', async () => {
    const events = await apps.call('get', '/audit-events?action=tenant.signing_key.rolled_over', administrator.token);
    expect(events.body.items).toHaveLength(2);
    expect(events.body.items[0]).toMatchObject({
      actor: { type: 'user', userId: administrator.user.id },
      targetType: 'tenant',
      targetId: apps.tenant.tenantId,
      details: { revokedPrevious: true, previousStatus: 'revoked', kid: expect.any(String), previousKid: expect.any(String) },
    });
    expect(JSON.stringify(events.body)).not.toMatch(/BEGIN|privateKey/);
  });
});
