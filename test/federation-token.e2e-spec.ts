import { generateKeyPairSync } from 'node:crypto';
import { UnsecuredJWT } from 'jose';
import { SignJWT } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaleCredentialService } from '@gatehouse/clients';
import { FederationEnv, claimsOf } from './support/federation-env.js';
import type { TestIssuer } from './support/oidc-issuer.js';

/**
 * The token endpoint with a federated credential (DESIGN §11, SECURITY 51/61): a GitHub-Actions-
 * shaped and a Kubernetes-shaped token from real https issuers get tokens for clients that hold no
 * secret; every mismatch is refused with Entra's AADSTS code and words.
 */
describe('token endpoint: external tokens as client assertions', () => {
  const env = new FederationEnv();
  let github: TestIssuer;
  let k8s: TestIssuer;
  let deploy: { id: string; clientId: string };
  let cluster: { id: string; clientId: string };

  beforeAll(async () => {
    await env.start();
    github = await env.issuers.issuer('github');
    k8s = await env.issuers.issuer('cluster-1', { alg: 'ES256' });
    deploy = await env.client();
    await env.credential(deploy.clientId, { name: 'production', issuer: github.url, subject: 'repo:contoso/orders:environment:production' });
    await env.credential(deploy.clientId, {
      name: 'branches',
      issuer: github.url,
      claimsMatchingExpression: { value: "claims['sub'] matches 'repo:contoso/orders:ref:refs/heads/release/*'", languageVersion: 1 },
    });
    await env.credential(deploy.clientId, { name: 'other-audience', issuer: github.url, subject: 'repo:contoso/orders:ref:refs/heads/main', audiences: ['api://gatehouse/ci'] });
    cluster = await env.client();
    await env.credential(cluster.clientId, { name: 'k8s', issuer: k8s.url, subject: 'system:serviceaccount:orders:orders-sync' });
  });

  afterAll(() => env.stop());

  it('a GitHub Actions job (environment, or a branch the expression admits) gets a token: azpacr 2, nothing secret stored', async () => {
    const environment = await env.exchange(deploy.clientId, await github.github('contoso/orders', 'refs/heads/main', { environment: 'production' }));
    expect(environment.status).toBe(200);
    expect(claimsOf(environment.body.access_token!)).toMatchObject({ azp: deploy.clientId, azpacr: '2', roles: ['Orders.Read'], tid: env.tenantId });
    const release = await env.exchange(deploy.clientId, await github.github('contoso/orders', 'refs/heads/release/2026.11'));
    expect(release.status).toBe(200);
    // The same token again (a job calls more than once): no replay rule for external tokens.
    const token = await github.github('contoso/orders', 'refs/heads/release/1');
    expect((await env.exchange(deploy.clientId, token)).status).toBe(200);
    expect((await env.exchange(deploy.clientId, token)).status).toBe(200);
    expect(await env.tokens.dataSource.query(`SELECT 1 FROM client_secrets UNION ALL SELECT 1 FROM client_certificates`)).toEqual([]);
  });

  it('a Kubernetes projected service account token (ES256, an hour long) gets a token; the v1 endpoint too', async () => {
    const answer = await env.exchange(cluster.clientId, await k8s.kubernetes('orders', 'orders-sync'));
    expect(answer.status).toBe(200);
    expect(claimsOf(answer.body.access_token!)).toMatchObject({ azp: cluster.clientId, azpacr: '2' });
    const v1 = await fetch(`${env.authority}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: cluster.clientId,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: await k8s.kubernetes('orders', 'orders-sync'),
        resource: 'api://orders',
      }),
    });
    expect(v1.status).toBe(200);
  });

  it('refuses what no credential matches, naming what the token carried (700211, 700212, 700213, 70021)', async () => {
    const other = await env.issuers.issuer('gitlab');
    const wrongIssuer = await env.exchange(deploy.clientId, await other.mint({ sub: 'repo:contoso/orders:environment:production', aud: 'api://AzureADTokenExchange' }));
    expect(wrongIssuer).toMatchObject({ status: 401, code: 700211, body: { error: 'invalid_client' } });
    expect(wrongIssuer.body.error_description).toContain(
      `AADSTS700211: No matching federated identity record found for presented assertion issuer '${other.url}'. Please check your federated identity credential Subject, Audience and Issuer against the presented assertion.`,
    );
    const wrongSubject = await env.exchange(deploy.clientId, await github.github('contoso/orders', 'refs/heads/main', { environment: 'staging' }));
    expect(wrongSubject).toMatchObject({ status: 401, code: 700213 });
    expect(wrongSubject.body.error_description).toContain("presented assertion subject 'repo:contoso/orders:environment:staging'. Check your federated");
    const outsideExpression = await env.exchange(deploy.clientId, await github.github('contoso/orders', 'refs/heads/feature/x'));
    expect(outsideExpression.code).toBe(700213);
    const wrongAudience = await env.exchange(deploy.clientId, await github.mint({ sub: 'repo:contoso/orders:environment:production', aud: 'https://github.com/contoso' }));
    expect(wrongAudience.code).toBe(700212);
    expect(wrongAudience.body.error_description).toContain("presented assertion audience 'https://github.com/contoso'");
    // main is trusted for another audience only: each part matches some credential, none all three.
    const crossed = await env.exchange(deploy.clientId, await github.github('contoso/orders', 'refs/heads/main'));
    expect(crossed).toMatchObject({ status: 401, code: 70021 });
    expect(crossed.body.error_description).toContain(
      `AADSTS70021: No matching federated identity record found for presented assertion. Assertion Issuer: '${github.url}'. Assertion Subject: 'repo:contoso/orders:ref:refs/heads/main'. Assertion Audience: 'api://AzureADTokenExchange'.`,
    );
    // The credential of one client is nothing to another.
    expect((await env.exchange(cluster.clientId, await github.github('contoso/orders', 'refs/heads/main', { environment: 'production' }))).code).toBe(700211);
  });

  it('refuses expired and too long-lived tokens (700024), with five minutes of skew', async () => {
    const expired = await env.exchange(cluster.clientId, await k8s.mint({ sub: 'system:serviceaccount:orders:orders-sync', aud: 'api://AzureADTokenExchange' }, { issuedSecondsAgo: 1000, lifetimeSeconds: 600 }));
    expect(expired).toMatchObject({ status: 401, code: 700024 });
    expect(expired.body.error_description).toContain('Client assertion is not within its valid time range.');
    const skewed = await env.exchange(cluster.clientId, await k8s.mint({ sub: 'system:serviceaccount:orders:orders-sync', aud: 'api://AzureADTokenExchange' }, { issuedSecondsAgo: 700, lifetimeSeconds: 600 }));
    expect(skewed.status).toBe(200);
    const tooLong = await env.exchange(cluster.clientId, await k8s.kubernetes('orders', 'orders-sync', { lifetimeSeconds: 25 * 3600 }));
    expect(tooLong.code).toBe(700024);
    expect(tooLong.body.error_description).toContain('an external token may be valid for 24 hours at most');
  });

  it('refuses alg none and HMAC (5002738), a key the issuer does not publish (7000272), a bad signature (700027), malformed tokens (50027)', async () => {
    const claims = { iss: github.url, sub: 'repo:contoso/orders:environment:production', aud: 'api://AzureADTokenExchange', exp: Math.floor(Date.now() / 1000) + 300 };
    const none = new UnsecuredJWT(claims).encode();
    expect((await env.exchange(deploy.clientId, none)).code).toBe(5002738);
    const hs256 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: 'k' }).sign(Buffer.alloc(32, 7));
    const hmac = await env.exchange(deploy.clientId, hs256);
    expect(hmac).toMatchObject({ status: 401, code: 5002738 });
    expect(hmac.body.error_description).toContain("'HS256' is not a supported signature algorithm");
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const unpublished = await github.mint({ sub: claims.sub, aud: claims.aud }, { key: stranger, kid: 'not-published' });
    const notFound = await env.exchange(deploy.clientId, unpublished);
    expect(notFound).toMatchObject({ status: 401, code: 7000272 });
    expect(notFound.body.error_description).toContain(`The certificate with identifier not-published used to sign the federated credential could not be found in the metadata of identity provider ${github.url}.`);
    const forged = await github.mint({ sub: claims.sub, aud: claims.aud }, { key: stranger }); // the published kid, another key
    expect((await env.exchange(deploy.clientId, forged)).code).toBe(700027);
    expect((await env.exchange(deploy.clientId, 'not.a.jwt')).code).toBe(50027);
    const noClientId = await env.exchange(undefined, await github.github('contoso/orders', 'refs/heads/main', { environment: 'production' }));
    expect(noClientId).toMatchObject({ status: 400, code: 900144 });
  });

  it('a federated credential disabled as stale is refused at once (700211, the only one of its issuer); enabled again it works', async () => {
    const exchange = async () => env.exchange(cluster.clientId, await k8s.kubernetes('orders', 'orders-sync'));
    expect((await exchange()).status).toBe(200); // cached by the identity app before the run
    const admin = request(env.admin.getHttpServer());
    await admin.put('/admin/v1/credential-policy').set('authorization', `Bearer ${env.operatorToken}`).send({ disableStaleCredentials: true }).expect(200);
    await env.tokens.dataSource.query(`UPDATE client_federated_credentials SET last_used_at = now() - interval '100 days' WHERE api_client_id = $1`, [cluster.id]);
    const [row] = await env.tokens.dataSource.query(`SELECT id FROM client_federated_credentials WHERE api_client_id = $1`, [cluster.id]);
    expect(await env.admin.get(StaleCredentialService).reportStale()).toMatchObject({ disabled: 1 });
    await env.tokens.settle();
    expect(await exchange()).toMatchObject({ status: 401, code: 700211 });
    await admin.post(`/admin/v1/clients/${cluster.clientId}/federated-credentials/${row.id as string}/enable`).set('authorization', `Bearer ${env.operatorToken}`).expect(200);
    await env.tokens.settle();
    expect((await exchange()).status).toBe(200);
  });

  it('refuses a disabled client and an unknown one, after the credential matched', async () => {
    const unknown = await env.exchange('3f1d1c2e-0000-4000-8000-000000000000', await k8s.kubernetes('orders', 'orders-sync'));
    expect(unknown).toMatchObject({ status: 400, code: 700016 });
    await env.tokens.change(`UPDATE api_clients SET state = 'disabled' WHERE id = $1`, [cluster.id], { kind: 'client', tenantId: env.tenantId, id: cluster.clientId });
    await env.tokens.settle();
    expect((await env.exchange(cluster.clientId, await k8s.kubernetes('orders', 'orders-sync'))).code).toBe(7000112);
  });
});
