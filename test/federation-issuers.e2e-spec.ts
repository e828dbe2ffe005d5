import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssuerKeys } from '@gatehouse/tokens';
import { FederationEnv } from './support/federation-env.js';
import type { TestIssuer } from './support/oidc-issuer.js';

/**
 * Fetching issuers' keys is an outbound call an attacker can influence (DESIGN §11, SECURITY 61):
 * an issuer on a private address that FEDERATION_PRIVATE_ISSUERS does not name, one that redirects
 * to another host, answers 10 MB or never answers, is refused with Entra's AADSTS50166; keys once
 * fetched serve through an outage; a rotated key is picked up with one fetch; and a flood of
 * assertions naming random issuers or kids causes no flood of outbound calls.
 */
describe('token endpoint: fetching issuers under the outbound rules', () => {
  const env = new FederationEnv();
  let client: { clientId: string };
  const sub = 'system:serviceaccount:jobs:nightly';

  /** An issuer of the given behaviour, trusted by a credential of the test's client. */
  async function trusted(name: string, options: { origin?: string } = {}): Promise<TestIssuer> {
    const issuer = await env.issuers.issuer(name, options);
    await env.credential(client.clientId, { name, issuer: issuer.url, subject: sub });
    return issuer;
  }
  const token = (issuer: TestIssuer, kid?: string) => issuer.mint({ sub, aud: 'api://AzureADTokenExchange' }, { kid });

  beforeAll(async () => {
    await env.start();
    client = await env.client();
  });

  afterAll(() => env.stop());

  it('refuses an issuer on a private address the allow-list does not name, before any request reaches it', async () => {
    const loopback = await trusted('loopback', { origin: env.issuers.origin.replace('localhost', '127.0.0.1') });
    const answer = await env.exchange(client.clientId, await token(loopback));
    expect(answer).toMatchObject({ status: 400, code: 50166, body: { error: 'invalid_request' } });
    expect(answer.body.error_description).toContain(
      'Request to External OIDC endpoint failed: the host resolves to a private, loopback or link-local address that is not allowed.',
    );
    expect(loopback.requests).toBe(0);
  });

  it('refuses an issuer that redirects to another host, answers 10 MB, or never answers', async () => {
    const redirecting = await trusted('redirecting');
    redirecting.mode = 'redirect';
    const huge = await trusted('huge');
    huge.mode = 'huge';
    const silent = await trusted('silent');
    silent.mode = 'hang';
    const [redirected, large, hanging] = await Promise.all([
      env.exchange(client.clientId, await token(redirecting)),
      env.exchange(client.clientId, await token(huge)),
      env.exchange(client.clientId, await token(silent)),
    ]);
    expect(redirected.code).toBe(50166);
    expect(redirected.body.error_description).toContain('the server redirected to another host');
    expect(large.code).toBe(50166);
    expect(large.body.error_description).toContain('the answer is larger than allowed');
    expect(hanging.code).toBe(50166);
    expect(hanging.body.error_description).toContain('the server did not answer in time');
    // Each was asked once: no retry for a minute after a failure.
    expect((await env.exchange(client.clientId, await token(silent))).code).toBe(50166);
    expect([redirecting.requests, huge.requests, silent.requests]).toEqual([1, 1, 1]);
  });

  it('keeps serving with the keys it has while the issuer is down', async () => {
    const flaky = await trusted('flaky');
    expect((await env.exchange(client.clientId, await token(flaky))).status).toBe(200);
    flaky.mode = 'down';
    expect((await env.exchange(client.clientId, await token(flaky))).status).toBe(200);
    expect((await env.exchange(client.clientId, await token(flaky, 'a-kid-it-never-had'))).code).toBe(7000272);
    expect((await env.exchange(client.clientId, await token(flaky))).status).toBe(200);
    expect(flaky.requests).toBe(3); // discovery and keys once, then one failed refetch for the unknown kid
  });

  it('picks up a rotated key with one fetch; random kids after it cause no more', async () => {
    const rotating = await trusted('rotating');
    expect((await env.exchange(client.clientId, await token(rotating))).status).toBe(200);
    expect(rotating.requests).toBe(2);
    await rotating.rotate();
    expect((await env.exchange(client.clientId, await token(rotating))).status).toBe(200);
    expect(rotating.requests).toBe(4);
    const flood = await Promise.all(Array.from({ length: 40 }, async () => (await env.exchange(client.clientId, await token(rotating, randomUUID()))).code));
    expect(new Set(flood)).toEqual(new Set([7000272]));
    expect(rotating.requests).toBe(4);
  });

  it('a flood naming random issuers causes no outbound call at all', async () => {
    const keys = env.identity.get(IssuerKeys);
    const before = keys.fetches;
    const strangers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => env.issuers.issuer(`stranger-${i}`)),
    );
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => (await env.exchange(client.clientId, await token(strangers[i % 10]!))).code),
    );
    // Refused as naming no credential's issuer, and past 50 failures of one address by the throttle (AADSTS90055).
    expect(answers).toContain(700211);
    expect(answers.filter((code) => code !== 700211 && code !== 90055)).toEqual([]);
    expect(keys.fetches).toBe(before);
    expect(strangers.reduce((sum, s) => sum + s.requests, 0)).toBe(0);
  });
});
